--TEST--
Results that cannot fit memory_limit (or gpupost.max_result_bytes) are refused with a catchable GpuPost\Exception (no fatal error), for every format, on host and device; the process goes on
--EXTENSIONS--
gpupost
--INI--
memory_limit=64M
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$paths = gp_device_available() ? ['host', 'device'] : ['host'];
$blobs = [
    /* 1M words of 24 one-bit values: 24M values, 512 MiB as a PHP array (2^25 zvals) */
    'MOD9' => [GPUPOST_MOD9, str_repeat(pack('N', 0x3FFFFFFF), 1 << 20)],
    /* n = 28M in 1M words of 28 one-bit values (the header says so) */
    'S9' => [GPUPOST_S9, 'GPS9' . pack('V', 28 << 20) . pack('V', 0) . str_repeat(pack('V', 0x8FFFFFFF), 1 << 20)],
    /* 32M zeros: l = 0, upper bits 0..32M-1 all set: 1M words of ones */
    'QS' => [GPUPOST_QS, 'GPQS' . "\x01\x00\x00\x00" . pack('V', 32 << 20) . pack('V', 0) . str_repeat("\xff\xff\xff\xff", 1 << 20)],
    /* 2^30 rows, all set, in one fill */
    'WAH' => [GPUPOST_WAH, 'GPWH' . "\x40\0\0\0" . pack('P', 63 << 24) . pack('P', (1 << 63) | (1 << 62) | (1 << 24))],
];
foreach ($blobs as $name => [$format, $blob]) {
    foreach ($paths as $path) {
        echo "$name $path: ", gp_error_of(fn() => gp_on($path, fn() => gpu_decode_postings($blob, $format))), "\n";
    }
    unset($blobs[$name]);
}
$wah = 'GPWH' . "\x40\0\0\0" . pack('P', 63 << 24) . pack('P', (1 << 63) | (1 << 62) | (1 << 24));
echo gp_error_of(fn() => gpu_wah_query([$wah, $wah])), "\n";
echo gp_error_of(fn() => gpu_wah_decompress($wah)), "\n";
/* and the next, small, call works */
var_dump(gpu_decode_postings(pack('N', 0x3c0014e5)) === [1, 2, 3, 4, 5]);
?>
--EXPECTF--
MOD9 host: GpuPost\Exception: the decoded result (25165824 values, 0 postings) would need %d bytes of PHP memory, more than memory_limit leaves (%d)
%AS9 host: GpuPost\Exception: the decoded result (29360128 values, 0 postings) would need %d bytes of PHP memory, more than memory_limit leaves (%d)
%AQS host: GpuPost\Exception: the decoded result (33554432 values, 0 postings) would need %d bytes of PHP memory, more than memory_limit leaves (%d)
%AWAH host: GpuPost\Exception: the decoded result (1056964608 values, 0 postings) would need %d bytes, more than gpupost.max_result_bytes (1073741824)
%AGpuPost\Exception: the decoded result (1056964608 values, 0 postings) would need %d bytes, more than gpupost.max_result_bytes (1073741824)
GpuPost\Exception: the uncompressed bitmap would need 132120608 bytes of PHP memory, more than memory_limit leaves (%d)
bool(true)
