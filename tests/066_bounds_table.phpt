--TEST--
Bounded by design: each input that once ended a request in a fatal error or a wrong value now ends in GpuPost\Exception naming the size and the limit, or in the correct result where the limits allow it; host and device, each in a child process with its own memory_limit
--EXTENSIONS--
gpupost
--INI--
memory_limit=512M
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$dir = sys_get_temp_dir() . '/gpupost-066-' . getmypid();
@mkdir($dir);

/* 800,000 postings of one position each (2000: past the combined form, so two values a posting) */
$blob = '';
for ($d = 0; $d < 800000; $d += 50000) {
    $chunk = [];
    for ($i = $d; $i < $d + 50000; $i++) $chunk[$i] = [2000];
    $blob .= gpu_encode_postings($chunk, GPUPOST_MOD9, GPUPOST_POSTINGS);
}
file_put_contents("$dir/postings", $blob);
echo 'postings blob: ', strlen($blob), " bytes\n";
unset($blob, $chunk);

$wah64 = fn(int $nbits, int ...$words) => 'GPWH' . "\x40\0\0\0" . pack('P', $nbits) . implode('', array_map(fn($w) => pack('P', $w), $words));
$fill = fn(int $bit, int $groups) => (1 << 63) | ($bit << 62) | $groups;
$cases = [
    '1M one-value MOD9 blobs, batch' => ['128M', '$b = array_fill(0, 1000000, pack("N", 5));
        gp_report(fn() => gpu_decode_postings_batch($b));'],
    '800,000 one-position postings, POSTINGS' => ['128M', '$b = file_get_contents($argv[1] . "/postings");
        gp_report(fn() => gpu_decode_postings($b, GPUPOST_MOD9, GPUPOST_POSTINGS));'],
    /* 2^22 + 1 = 63 * 66576 + 17 rows: a fill of ones, then 17 ones */
    'WAH of 2^22 + 1 set rows' => ['128M', '$b = ' . var_export($wah64((1 << 22) + 1, $fill(1, 66576), (1 << 17) - 1), true) . ';
        gp_report(fn() => gpu_decode_postings($b, GPUPOST_WAH));'],
    'QS encoder, c = 1e-9' => ['128M', 'gp_report(fn() => gpu_encode_postings([4294967295], GPUPOST_QS, GPUPOST_VALUES, ["c" => 1e-9]));'],
    'WAH decompress of 2^40 rows in one 0-fill' => ['-1', '$b = ' . var_export($wah64(1 << 40, $fill(0, intdiv((1 << 40) + 62, 63))), true) . ';
        gp_report(fn() => gpu_wah_decompress($b));'],
    /* 2^30 = 63 * 17043521 + 1 rows */
    'WAH of 2^30 set rows' => ['-1', '$b = ' . var_export($wah64(1 << 30, $fill(1, 17043521), 1), true) . ';
        gp_report(fn() => gpu_decode_postings($b, GPUPOST_WAH));'],
    /* nbits = 2^64 - 1: ceil(nbits / 63) = 292805461487453201 groups, row 0 of the last set */
    'WAH of nbits 2^64 - 1' => ['-1', '$b = ' . var_export($wah64(-1, $fill(0, 292805461487453200), 1), true) . ';
        gp_report(fn() => gpu_decode_postings($b, GPUPOST_WAH));
        gp_report(fn() => gpu_wah_decompress($b));
        gp_report(fn() => gpu_wah_query([$b, $b]));'],
];
$paths = gp_device_available() ? ['host', 'device'] : ['host'];
foreach ($cases as $name => [$limit, $code]) {
    foreach ($paths as $path) {
        [$out, $rc] = gp_child(GP_CHILD_RUN . $code, ['memory_limit' => $limit], $path, [$dir]);
        echo "$name ($path, memory_limit=$limit): ", $rc === 0 ? '' : "exit $rc: ", $out, "\n";
    }
}

/* where the limits allow, the same inputs give the right answer */
$right = [
    '1M one-value MOD9 blobs' => '$b = array_fill(0, 1000000, pack("N", 5));
        var_dump(gpu_decode_postings_batch($b) === array_fill(0, 1000000, [5]));',
    '800,000 postings' => '$r = gpu_decode_postings(file_get_contents($argv[1] . "/postings"), GPUPOST_MOD9, GPUPOST_POSTINGS);
        var_dump(count($r) === 800000 && $r[0] === [2000] && $r[799999] === [2000] && array_keys($r) === range(0, 799999));',
    'WAH of 2^22 + 1 rows' => '$b = ' . var_export($wah64((1 << 22) + 1, $fill(1, 66576), (1 << 17) - 1), true) . ';
        var_dump(gpu_decode_postings($b, GPUPOST_WAH) === range(0, 1 << 22));',
];
foreach ($right as $name => $code) {
    foreach ($paths as $path) {
        [$out, $rc] = gp_child($code, ['memory_limit' => '-1', 'gpupost.max_result_bytes' => '4G'], $path, [$dir]);
        echo "$name ($path, no memory_limit, cap 4G): ", $rc === 0 ? '' : "exit $rc: ", $out, "\n";
    }
}
unlink("$dir/postings");
rmdir($dir);
?>
--EXPECTF--
postings blob: %d bytes
1M one-value MOD9 blobs, batch (host, memory_limit=128M): GpuPost\Exception: the decoded result's arrays would need %d bytes of PHP memory, more than memory_limit leaves (%d)
%A800,000 one-position postings, POSTINGS (host, memory_limit=128M): GpuPost\Exception: the decoded result's arrays would need %d bytes of PHP memory, more than memory_limit leaves (%d)
%AWAH of 2^22 + 1 set rows (host, memory_limit=128M): GpuPost\Exception: the decoded result (4194305 values, 0 postings) would need %d bytes of PHP memory, more than memory_limit leaves (%d)
%AQS encoder, c = 1e-9 (host, memory_limit=128M): GpuPost\Exception: the encoded list would need %d bytes of PHP memory, more than memory_limit leaves (%d)
%AWAH decompress of 2^40 rows in one 0-fill (host, memory_limit=-1): GpuPost\Exception: the uncompressed bitmap would need %d bytes, more than gpupost.max_result_bytes (1073741824)
%AWAH of 2^30 set rows (host, memory_limit=-1): GpuPost\Exception: the decoded result (1073741824 values, 0 postings) would need %d bytes, more than gpupost.max_result_bytes (1073741824)
%AWAH of nbits 2^64 - 1 (host, memory_limit=-1): GpuPost\Exception: WAH: byte 8: nbits 18446744073709551615 is past 2^63 (its rows would not fit a 64-bit signed int)
GpuPost\Exception: WAH: byte 8: nbits 18446744073709551615 is past 2^63 (its rows would not fit a 64-bit signed int)
GpuPost\Exception: WAH: blob 0, byte 8: nbits 18446744073709551615 is past 2^63 (its rows would not fit a 64-bit signed int)
%A1M one-value MOD9 blobs (host, no memory_limit, cap 4G): bool(true)
%A800,000 postings (host, no memory_limit, cap 4G): bool(true)
%AWAH of 2^22 + 1 rows (host, no memory_limit, cap 4G): bool(true)%A
