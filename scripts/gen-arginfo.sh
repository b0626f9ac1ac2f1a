#!/bin/sh
# Regenerates gpupost_arginfo.h from gpupost.stub.php with php-src's gen_stub.php, using
# Debian's php-parser package instead of the download gen_stub.php would attempt.
# Needs: apt-get install php-dev php-parser. The result is committed; builds never run this.
set -eu
cd "$(dirname "$0")/.."
build=$(php-config --extension-dir >/dev/null && dirname "$(php-config --php-binary)" >/dev/null; echo /usr/lib/php/$(php-config --phpapi)/build)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$build/gen_stub.php" "$work/"
ver=$(sed -n 's/.*\$version = "\([0-9.]*\)";.*/\1/p' "$work/gen_stub.php" | head -1)
mkdir -p "$work/PHP-Parser-$ver/lib"
ln -s /usr/share/php/PhpParser "$work/PHP-Parser-$ver/lib/PhpParser"
php "$work/gen_stub.php" -f gpupost.stub.php
