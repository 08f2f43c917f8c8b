#!/bin/sh
echo "# reviewls:ignore security/weak-crypto"
echo a#reviewls:ignore security/weak-crypto
md5sum x # reviewls:ignore security/weak-crypto <why this finding does not apply> want "still the placeholder"
