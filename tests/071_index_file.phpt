--TEST--
GpuPost\Index save(['version' => 1]) and open(): version 1's documented layout (checksums recomputed in PHP), the same answers after a round trip, and every corrupted, truncated or foreign file refused with GpuPost\Exception
--EXTENSIONS--
gpupost
--FILE--
<?php
mt_srand(71);
$dir = sys_get_temp_dir() . '/gpupost-071-' . getmypid();
@mkdir($dir);

$lists = [];
for ($t = 0; $t < 30; $t++) {
    $l = [];
    foreach (array_rand(array_fill(0, 70000, 1), mt_rand(2, 60)) as $d) {
        $p = [];
        $at = 0;
        for ($i = mt_rand(1, 3); $i > 0; $i--) $p[] = $at += mt_rand(1, 900);
        $l[$d] = $p;
    }
    $lists["w$t"] = $l;
}
/* MOD9 blobs as Yioop writes them (its combined form where it takes it) */
$mod9 = [];
foreach ($lists as $t => $l) $mod9[$t] = gpu_encode_postings($l, GPUPOST_MOD9, GPUPOST_POSTINGS);
$qs = [];
foreach ($lists as $t => $l) $qs[$t] = gpu_encode_postings(array_keys($l), GPUPOST_QS);
$queries = [];
for ($q = 0; $q < 60; $q++) $queries[] = ['w' . mt_rand(0, 29), 'w' . mt_rand(0, 29)];

$ok = 0;
foreach (['arrays' => [$lists, GPUPOST_POSTINGS], 'mod9' => [$mod9, GPUPOST_MOD9], 'qs' => [$qs, GPUPOST_QS]] as $name => [$in, $fmt]) {
    $ix = new GpuPost\Index($in, $fmt);
    $path = "$dir/$name.gpix";
    $ix->save($path, ['version' => 1]);
    $back = GpuPost\Index::open($path);
    /* the file's lists kept compressed on the device (uploaded from the file image) */
    $packed = GpuPost\Index::open($path, ['device' => gpu_info()['backend'] === 'opencl' ? 'cpu' : 'host', 'device_lists' => 'compressed']);
    $same = $packed->info()['device_lists'] === 'compressed';
    foreach ([GPUPOST_AND, GPUPOST_OR] as $op) {
        $want = $ix->searchBatch($queries, ['op' => $op]);
        $same = $same && $back->searchBatch($queries, ['op' => $op]) === $want && $packed->searchBatch($queries, ['op' => $op]) === $want;
    }
    $a = $ix->info(); $b = $back->info();
    foreach (['terms', 'docs', 'postings', 'positions', 'format', 'positional'] as $k) $same = $same && $a[$k] === $b[$k];
    $same = $same && $b['file'] === $path && !$b['persistent'];
    echo "$name: round trip ", $same ? "equal" : "DIFFERENT", "\n";

    /* the layout of docs/FORMATS.md section 5, read here in PHP */
    $f = file_get_contents($path);
    $h = unpack('Z8magic/Vversion/Vformat/Vflags/Vterms/Pdocs/Vpostings/Vpositions/Vmaxdoc/Vsections/Vtablecrc', $f);
    $crc_ok = $h['magic'] === "GPUPIDX" && $h['version'] === 1 && $h['terms'] === 30 &&
        unpack('V', $f, 60)[1] === crc32(substr($f, 0, 60)) &&
        $h['tablecrc'] === crc32(substr($f, 64, 24 * $h['sections']));
    for ($s = 0; $s < $h['sections']; $s++) {
        $e = unpack('Vid/Vcrc/Poff/Plen', $f, 64 + 24 * $s);
        $crc_ok = $crc_ok && $e['crc'] === crc32(substr($f, $e['off'], $e['len']));
    }
    echo "$name: header and checksums as documented: ", $crc_ok ? "yes" : "NO", "\n";
}

/* the worked example of docs/FORMATS.md section 5, byte for byte */
(new GpuPost\Index(['a' => [1 => [1, 2]]], GPUPOST_POSTINGS))->save("$dir/example.gpix", ['version' => 1]);
echo "worked example: ", bin2hex(file_get_contents("$dir/example.gpix")) === '475055504944580001000000010000000100000001000000010000000000000001000000020000000100000004000000b4f892ff00000000000000001785a0db01000000cb4b1120a00000000000000010000000000000000200000043beb7e8b000000000000000010000000000000003000000af45f168b800000000000000100000000000000004000000c984b47ac8000000000000000400000000000000000000000000000001000000000000006100000000000000000000000000000004000000000000003e00002500000000' ? "as documented" : "DIFFERENT", "\n";

/* every single-byte corruption of a small file: refused, or (a padding byte) the same answers */
$small = new GpuPost\Index(array_slice($mod9, 0, 3), GPUPOST_MOD9);
$path = "$dir/small.gpix";
$small->save($path, ['version' => 1]);
$good = file_get_contents($path);
$want = $small->searchBatch([['w0'], ['w1'], ['w2'], ['w0', 'w1']], ['op' => GPUPOST_OR]);
$refused = $same = $wrong = 0;
for ($i = 0; $i < strlen($good); $i++) {
    $bad = $good;
    $bad[$i] = chr(ord($bad[$i]) ^ (1 << ($i % 8)));
    file_put_contents($path, $bad);
    try {
        $got = GpuPost\Index::open($path)->searchBatch([['w0'], ['w1'], ['w2'], ['w0', 'w1']], ['op' => GPUPOST_OR]);
        $got === $want ? $same++ : $wrong++;
    } catch (GpuPost\Exception $e) {
        $refused++;
    }
}
echo "flipped bytes: ", $wrong, " wrong answers, ", $refused > strlen($good) * 0.9 ? "most refused" : "too few refused ($refused)", "\n";
$tr = 0;
for ($n = 0; $n < strlen($good); $n++) {
    file_put_contents($path, substr($good, 0, $n));
    try { GpuPost\Index::open($path); } catch (GpuPost\Exception $e) { $tr++; }
}
echo "truncations refused: ", $tr === strlen($good) ? "all" : $tr, "\n";

/* messages: foreign file, version, a list broken under valid checksums */
function reopen(string $path, string $bytes): void {
    file_put_contents($path, $bytes);
    try { GpuPost\Index::open($path); echo "opened!\n"; } catch (GpuPost\Exception $e) { echo str_replace("index file $path:", 'index file F:', $e->getMessage()), "\n"; }
}
reopen($path, file_get_contents(__FILE__));
$v2 = $good;
$v2[8] = "\x03";
$v2 = substr($v2, 0, 60) . pack('V', crc32(substr($v2, 0, 60))) . substr($v2, 64);
reopen($path, $v2);
/* the last byte of the lists section broken, its checksum, the table's and the header's redone */
$e = unpack('Vid/Vcrc/Poff/Plen', $good, 64 + 24 * 3);
$lb = $good;
$lb[$e['off'] + $e['len'] - 4] = "\xC0";
$lb = substr_replace($lb, pack('V', crc32(substr($lb, $e['off'], $e['len']))), 64 + 24 * 3 + 4, 4);
$lb = substr_replace($lb, pack('V', crc32(substr($lb, 64, 96))), 48, 4);
$lb = substr_replace($lb, pack('V', crc32(substr($lb, 0, 60))), 60, 4);
reopen($path, $lb);
try { GpuPost\Index::open("$dir/none.gpix"); } catch (GpuPost\Exception $e) { echo "missing file: ", get_class($e), "\n"; }
try { $small->save("$dir/no/such/dir/x.gpix"); } catch (GpuPost\Exception $e) { echo "unwritable: ", get_class($e), "\n"; }
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECTF--
arrays: round trip equal
arrays: header and checksums as documented: yes
mod9: round trip equal
mod9: header and checksums as documented: yes
qs: round trip equal
qs: header and checksums as documented: yes
worked example: as documented
flipped bytes: 0 wrong answers, most refused
truncations refused: all
index file F: byte 0: not a gpupost index (the magic is not "GPUPIDX\0")
index file F: byte 8: version 3: this build reads versions 1 and 2
index file F: byte %d: term 'w2' (list 2): MOD9 byte %d: %s
missing file: GpuPost\Exception
unwritable: GpuPost\Exception
