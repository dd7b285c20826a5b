#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# sealwire-hpke end to end, in every mode: keygen to files (private key 0600,
# never overwritten without --force),
# seal stdin to a file, open it back; a wrong info and a flipped byte fail.
set -euo pipefail
tool="$1"; work="$2"
rm -rf "$work"; mkdir -p "$work"; cd "$work"
"$tool" keygen --kem x448 --out bob 2>/dev/null
"$tool" keygen --kem x448 --out alice --hex 2>/dev/null
[[ $(stat -c %a bob.priv) == 600 ]] || { echo "private key file is not 0600"; exit 1; }
# Existing key files are kept unless --force is given.
cp bob.priv bob.priv.orig
if "$tool" keygen --kem x448 --out bob 2>/dev/null; then echo "keygen overwrote bob.priv"; exit 1; fi
cmp -s bob.priv bob.priv.orig || { echo "a refused keygen changed bob.priv"; exit 1; }
"$tool" keygen --kem x448 --out carol --hex 2>/dev/null
"$tool" keygen --kem x448 --out carol --hex --force 2>/dev/null
[[ $(stat -c %a carol.priv) == 600 ]] || { echo "a replaced private key file is not 0600"; exit 1; }
suite=x448,hkdf-sha512,chacha20poly1305
msg="the magic words are squeamish ossifrage"
for mode in base psk auth auth_psk; do
  extra=(); open_extra=()
  case $mode in psk|auth_psk) extra+=(--psk 0102030405060708090a0b0c0d0e0f10 --psk-id me); open_extra+=(--psk 0102030405060708090a0b0c0d0e0f10 --psk-id me);; esac
  case $mode in auth|auth_psk) extra+=(--sender-key alice.priv); open_extra+=(--sender alice.pub);; esac
  printf '%s' "$msg" | "$tool" seal --suite $suite --mode $mode --recipient bob.pub --info ctx --aad hdr "${extra[@]}" --out sealed.bin
  got=$("$tool" open --suite $suite --mode $mode --key bob.priv --info ctx --aad hdr "${open_extra[@]}" --in sealed.bin)
  [[ "$got" == "$msg" ]] || { echo "mode $mode: round trip failed"; exit 1; }
  if "$tool" open --suite $suite --mode $mode --key bob.priv --info other --aad hdr "${open_extra[@]}" --in sealed.bin 2>/dev/null; then
    echo "mode $mode: a wrong info opened"; exit 1
  fi
done
# Flip one bit of byte 60 (in the ciphertext, past the 56-byte X448 enc).
# XOR, not an overwrite: a byte overwritten with a constant is unchanged
# whenever it already held that constant.
cp sealed.bin sealed.orig
old=$(od -An -tu1 -j60 -N1 sealed.bin | tr -d ' ')
[[ -n "$old" ]] || { echo "sealed.bin is shorter than 61 bytes"; exit 1; }
printf "\\$(printf '%03o' $(( old ^ 0x01 )))" | dd of=sealed.bin bs=1 seek=60 conv=notrunc 2>/dev/null
[[ $(cmp -l sealed.orig sealed.bin | wc -l) == 1 ]] || { echo "the tamper did not change exactly one byte"; exit 1; }
if "$tool" open --suite $suite --mode auth_psk --key bob.priv --info ctx --aad hdr --psk 0102030405060708090a0b0c0d0e0f10 --psk-id me --sender alice.pub --in sealed.bin 2>/dev/null; then
  echo "a tampered message opened"; exit 1
fi
echo "tool ok"
