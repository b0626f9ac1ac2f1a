--TEST--
S9 and QS malformed blobs: each rule a GpuPost\Exception naming offset and rule, the same on host and device; huge headers refused before allocation
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$paths = gp_device_available() ? ['host', 'device'] : ['host'];
$s9 = gpu_encode_postings([1, 2, 3], GPUPOST_S9);                 /* one word 0x76C00000 */
$s9_2 = gpu_encode_postings(array_fill(0, 30, 1), GPUPOST_S9);    /* two words */
$qs = gpu_encode_postings([3, 4, 7, 13, 14, 15, 21, 43], GPUPOST_QS);
$set = fn(string $b, int $at, string $bytes) => substr_replace($b, $bytes, $at, strlen($bytes));
$cases = [
    'S9 wrong magic' => [GPUPOST_S9, $set($s9, 0, 'GPS8')],
    'S9 too short' => [GPUPOST_S9, 'GPS9'],
    'S9 ragged length' => [GPUPOST_S9, $s9 . "\0"],
    'S9 delta 3' => [GPUPOST_S9, $set($s9, 8, pack('V', 3))],
    'S9 selector 9' => [GPUPOST_S9, $set($s9, 12, pack('V', 0x90000001))],
    'S9 n above what the words hold' => [GPUPOST_S9, $set($s9, 4, pack('V', 15))],
    'S9 n too small for the words' => [GPUPOST_S9, $set($s9_2, 4, pack('V', 28))],
    'S9 n = 0 with words' => [GPUPOST_S9, $set($s9, 4, pack('V', 0))],
    'S9 unused slot not 0' => [GPUPOST_S9, $set($s9, 12, pack('V', 0x76C00001))],
    'S9 huge n' => [GPUPOST_S9, $set($s9, 4, pack('V', 0xFFFFFFFF))],
    'QS wrong magic' => [GPUPOST_QS, $set($qs, 0, 'GPQZ')],
    'QS version 2' => [GPUPOST_QS, $set($qs, 4, "\x02")],
    'QS l = 32' => [GPUPOST_QS, $set($qs, 5, "\x20")],
    'QS reserved bytes' => [GPUPOST_QS, $set($qs, 6, "\x01")],
    'QS one word short' => [GPUPOST_QS, substr($qs, 0, -4)],
    'QS one word long' => [GPUPOST_QS, $qs . "\0\0\0\0"],
    'QS huge n on a short blob' => [GPUPOST_QS, $set($qs, 8, pack('V', 0xFFFFFFFF))],
    'QS upper bits not n' => [GPUPOST_QS, $set($qs, 20, pack('V', 0x000209CC))],
    'QS bit past the end' => [GPUPOST_QS, $set($qs, 20, pack('V', 0x000209CD | (1 << 20)))],
    'QS last disagrees' => [GPUPOST_QS, $set($qs, 12, pack('V', 42))],
    /* elements 1 and 2 share x>>2 = 1; lower bits 3 then 0 make 7, 4 */
    'QS decreasing' => [GPUPOST_QS, $set($qs, 16, pack('V', 0x0000DE4F))],
    /* n * l = 16 lower bits: bits 16..31 of the lower word are padding */
    'QS lower padding' => [GPUPOST_QS, $set($qs, 18, "\xff")],
    'QS empty with last' => [GPUPOST_QS, hex2bin('47505153010000000000000005000000')],
];
foreach ($cases as $name => [$format, $blob]) {
    $msgs = [];
    foreach ($paths as $path) {
        $msgs[$path] = gp_error_of(fn() => gp_on($path, fn() => gpu_decode_postings($blob, $format)));
    }
    echo "$name: {$msgs['host']}\n";
    if (count(array_unique($msgs)) !== 1) { echo "  paths differ: ", json_encode($msgs), "\n"; }
    /* and inside a batch, named by key */
    $m = gp_error_of(fn() => gpu_decode_postings_batch(['good' => $format === GPUPOST_S9 ? $s9 : $qs, 'x' => $blob], $format));
    if (!str_contains($m, "blob 'x'")) { echo "  batch: $m\n"; }
}
echo gp_error_of(fn() => gpu_decode_postings($s9, GPUPOST_S9, GPUPOST_DOCS)), "\n";
echo gp_error_of(fn() => gpu_encode_postings([3, 2], GPUPOST_QS)), "\n";
echo gp_error_of(fn() => gpu_encode_postings([-1], GPUPOST_QS)), "\n";
echo gp_error_of(fn() => gpu_encode_postings([1 << 32], GPUPOST_QS)), "\n";
echo gp_error_of(fn() => gpu_encode_postings([1], GPUPOST_QS, GPUPOST_VALUES, ['c' => 0])), "\n";
echo gp_error_of(fn() => gpu_encode_postings([1], GPUPOST_QS, GPUPOST_VALUES, ['delta' => 1])), "\n";
echo gp_error_of(fn() => gpu_encode_postings([3, 2], GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1])), "\n";
echo gp_error_of(fn() => gpu_encode_postings([3, 3], GPUPOST_S9, GPUPOST_VALUES, ['delta' => 2])), "\n";
echo gp_error_of(fn() => gpu_encode_postings([1 << 28], GPUPOST_S9)), "\n";
echo gp_error_of(fn() => gpu_encode_postings([1], GPUPOST_S9, GPUPOST_VALUES, ['delta' => 5])), "\n";
echo gp_error_of(fn() => gpu_encode_postings([1], GPUPOST_S9, GPUPOST_VALUES, ['c' => 1.0])), "\n";
?>
--EXPECT--
S9 wrong magic: GpuPost\Exception: S9: byte 0: magic is not GPS9 (or the blob is shorter than its 12-byte header)
S9 too short: GpuPost\Exception: S9: byte 0: magic is not GPS9 (or the blob is shorter than its 12-byte header)
S9 ragged length: GpuPost\Exception: S9: byte 16: length 17 is not a whole number of 32-bit words
S9 delta 3: GpuPost\Exception: S9: byte 8: delta rule 3 is not 0, 1 or 2
S9 selector 9: GpuPost\Exception: S9: byte 12: selector 9 is above 8
S9 n above what the words hold: GpuPost\Exception: S9: byte 4: words hold 14 values, n says 15
S9 n too small for the words: GpuPost\Exception: S9: byte 12: words hold more values than n = 28
S9 n = 0 with words: GpuPost\Exception: S9: byte 4: value count 0 does not fit 1 words
S9 unused slot not 0: GpuPost\Exception: S9: byte 12: unused slots of the last word are not 0
S9 huge n: GpuPost\Exception: S9: byte 4: value count 4294967295 does not fit 1 words
QS wrong magic: GpuPost\Exception: QS: byte 0: magic is not GPQS (or the blob is shorter than its 16-byte header)
QS version 2: GpuPost\Exception: QS: byte 4: version 2 is not 1
QS l = 32: GpuPost\Exception: QS: byte 5: lower-bit width l = 32 is above 31
QS reserved bytes: GpuPost\Exception: QS: byte 6: reserved bytes 6-7 are not 0
QS one word short: GpuPost\Exception: QS: byte 8: length 20, but n = 8, l = 2 and last = 43 make it 24
QS one word long: GpuPost\Exception: QS: byte 8: length 28, but n = 8, l = 2 and last = 43 make it 24
QS huge n on a short blob: GpuPost\Exception: QS: byte 8: length 24, but n = 4294967295, l = 2 and last = 43 make it 1610612756
QS upper bits not n: GpuPost\Exception: QS: byte 20: upper bits hold 7 set bits, n is 8
QS bit past the end: GpuPost\Exception: QS: byte 20: upper bits set past bit 17, (last >> l) + n - 1
QS last disagrees: GpuPost\Exception: QS: byte 12: last = 42, but the list ends with 43
QS decreasing: GpuPost\Exception: QS: byte 16: the list decreases at element 2 (lower bits out of order)
QS lower padding: GpuPost\Exception: QS: byte 16: lower bits set past bit 15, n * l - 1
QS empty with last: GpuPost\Exception: QS: byte 12: last is 5 for an empty list (must be 0)
ValueError: gpu_decode_postings(): Argument #3 ($mode) must be GPUPOST_VALUES for this format (DOCS and POSTINGS are MOD9 only)
ValueError: gpu_encode_postings(): Argument #1 ($data) must be a non-decreasing list of integers from 0 to 4294967295 for GPUPOST_QS, 2 found at position 1
ValueError: gpu_encode_postings(): Argument #1 ($data) must be a non-decreasing list of integers from 0 to 4294967295 for GPUPOST_QS, -1 found at position 0
ValueError: gpu_encode_postings(): Argument #1 ($data) must be a non-decreasing list of integers from 0 to 4294967295 for GPUPOST_QS, 4294967296 found at position 0
ValueError: gpu_encode_postings(): Argument #4 ($options) option "c" must be a positive finite number
ValueError: gpu_encode_postings(): Argument #4 ($options) contains unknown option "delta" for this format
ValueError: gpu_encode_postings(): Argument #1 ($data) cannot be encoded as GPUPOST_S9 with delta 1 at position 1: values must be non-decreasing from 0, gaps below 2^28
ValueError: gpu_encode_postings(): Argument #1 ($data) cannot be encoded as GPUPOST_S9 with delta 2 at position 1: values must be strictly increasing from 0, gaps below 2^28
ValueError: gpu_encode_postings(): Argument #1 ($data) cannot be encoded as GPUPOST_S9 with delta 0 at position 0: values must be 0..2^28-1
ValueError: gpu_encode_postings(): Argument #4 ($options) option "delta" must be 0, 1 or 2
ValueError: gpu_encode_postings(): Argument #4 ($options) contains unknown option "c" for this format