--TEST--
WAH malformed blobs and bad queries: clear GpuPost\Exception (or ValueError for arguments), the same on host and device; a fill claiming 2^62 groups is refused before any allocation
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$paths = gp_device_available() ? ['host', 'device'] : ['host'];
$hdr = fn(int $w, int $nbits) => 'GPWH' . chr($w) . "\0\0\0" . pack('P', $nbits);
$cases = [
    'wrong magic' => 'GPWX' . substr($hdr(32, 31), 4) . pack('V', 1),
    'short' => 'GPWH',
    'word size 16' => $hdr(16, 31) . pack('V', 1),
    'reserved bytes' => substr_replace($hdr(32, 31), "\1", 6, 1) . pack('V', 1),
    'ragged 32' => $hdr(32, 31) . pack('V', 1) . "\0\0",
    'ragged 64' => $hdr(64, 63) . pack('V', 1),
    'zero-length fill' => $hdr(32, 62) . pack('V', 0x80000000) . pack('V', 1) . pack('V', 1),
    /* taken as one group, the runs would add up to ceil(nbits/31): only the run's own check sees it */
    'zero-length fill, total matching' => $hdr(32, 62) . pack('V', 0x80000000) . pack('V', 1),
    'too many groups' => $hdr(32, 31) . pack('V', 1) . pack('V', 1),
    'too few groups' => $hdr(32, 62) . pack('V', 1),
    'no words for nbits' => $hdr(32, 5),
    'literal bit past nbits' => $hdr(32, 10) . pack('V', 1 << 10),
    '1-fill past nbits' => $hdr(32, 40) . pack('V', 0xC0000002),
    'fill of 2^62 groups (64-bit)' => $hdr(64, 63) . pack('P', (1 << 63) | (1 << 62) - 1 + 0),
    'fill of 2^30 groups (32-bit)' => $hdr(32, 31) . pack('V', 0xBFFFFFFF),
];
foreach ($cases as $name => $blob) {
    $msgs = [];
    foreach ($paths as $path) {
        $msgs[$path] = gp_error_of(fn() => gp_on($path, fn() => gpu_decode_postings($blob, GPUPOST_WAH)));
        $m2 = gp_error_of(fn() => gp_on($path, fn() => gpu_wah_decompress($blob)));
        if ($m2 !== $msgs[$path]) { echo "  decompress differs on $path: $m2\n"; }
    }
    echo "$name: {$msgs['host']}\n";
    if (count(array_unique($msgs)) !== 1) { echo "  paths differ: ", json_encode($msgs), "\n"; }
}
$a = gpu_encode_postings([1, 2], GPUPOST_WAH, GPUPOST_VALUES, ['nbits' => 100]);
$b = gpu_encode_postings([1, 2], GPUPOST_WAH, GPUPOST_VALUES, ['nbits' => 101]);
/* the same in a batch (the device's count-and-scan path for several blobs) */
$msgs = [];
foreach ($paths as $path) {
    $msgs[$path] = gp_error_of(fn() => gp_on($path, fn() => gpu_decode_postings_batch(
        ['ok' => $a, 'bad' => $cases['zero-length fill, total matching']], GPUPOST_WAH)));
}
echo $msgs['host'], "\n";
if (count(array_unique($msgs)) !== 1) { echo "  paths differ: ", json_encode($msgs), "\n"; }
echo gp_error_of(fn() => gpu_wah_query(['a' => $a, 'b' => $b])), "\n";
echo gp_error_of(fn() => gpu_wah_query(['a' => $a, 'bad' => $hdr(32, 100) . pack('V', 1)])), "\n";
echo gp_error_of(fn() => gpu_wah_query([])), "\n";
echo gp_error_of(fn() => gpu_wah_query([$a], 7)), "\n";
echo gp_error_of(fn() => gpu_wah_query([$a, 5])), "\n";
echo gp_error_of(fn() => gpu_encode_postings([3, 3], GPUPOST_WAH)), "\n";
echo gp_error_of(fn() => gpu_encode_postings([5], GPUPOST_WAH, GPUPOST_VALUES, ['nbits' => 5])), "\n";
echo gp_error_of(fn() => gpu_encode_postings([5], GPUPOST_WAH, GPUPOST_VALUES, ['word_bits' => 16])), "\n";
/* a bitmap far larger than memory_limit is refused with an exception, not a fatal error */
ini_set('memory_limit', '64M');
echo gp_error_of(fn() => gpu_wah_decompress($hdr(64, 1 << 40) . pack('P', (1 << 63) | intdiv((1 << 40) + 62, 63)))), "\n";
var_dump(gpu_wah_query([$a, $a], GPUPOST_AND));
?>
--EXPECT--
wrong magic: GpuPost\Exception: WAH: byte 0: magic is not GPWH (or the blob is shorter than its 16-byte header)
short: GpuPost\Exception: WAH: byte 0: magic is not GPWH (or the blob is shorter than its 16-byte header)
word size 16: GpuPost\Exception: WAH: byte 4: word size 16 is not 32 or 64
reserved bytes: GpuPost\Exception: WAH: byte 5: reserved bytes 5-7 are not 0
ragged 32: GpuPost\Exception: WAH: byte 20: length 22 is not the header plus whole 32-bit words
ragged 64: GpuPost\Exception: WAH: byte 16: length 20 is not the header plus whole 64-bit words
zero-length fill: GpuPost\Exception: WAH: byte 16: fill of length 0
zero-length fill, total matching: GpuPost\Exception: WAH: byte 16: fill of length 0
too many groups: GpuPost\Exception: WAH: byte 20: groups pass ceil(nbits/31) = 1
too few groups: GpuPost\Exception: WAH: byte 20: groups add up to 1, ceil(nbits/31) is 2
no words for nbits: GpuPost\Exception: WAH: byte 16: groups add up to 0, ceil(nbits/31) is 1
literal bit past nbits: GpuPost\Exception: WAH: byte 16: bits set past nbits = 10
1-fill past nbits: GpuPost\Exception: WAH: byte 16: bits set past nbits = 40
fill of 2^62 groups (64-bit): GpuPost\Exception: WAH: byte 16: groups pass ceil(nbits/63) = 1
fill of 2^30 groups (32-bit): GpuPost\Exception: WAH: byte 16: groups pass ceil(nbits/31) = 1
GpuPost\Exception: WAH: blob 'bad', byte 16: fill of length 0
GpuPost\Exception: WAH: blob 'b', byte 8: nbits 101 differs from the first bitmap's 100
GpuPost\Exception: WAH: blob 'bad', byte 20: groups add up to 1, ceil(nbits/31) is 4
ValueError: gpu_wah_query(): Argument #1 ($blobs) must hold at least one bitmap
ValueError: gpu_wah_query(): Argument #2 ($op) must be GPUPOST_AND or GPUPOST_OR
TypeError: gpu_wah_query(): Argument #1 ($blobs) must contain only strings, int given
ValueError: gpu_encode_postings(): Argument #1 ($data) must be a strictly increasing list of rows >= 0 for GPUPOST_WAH, 3 found at position 1
ValueError: gpu_encode_postings(): Argument #4 ($options) option "nbits" (5) must be above the last row 5
ValueError: gpu_encode_postings(): Argument #4 ($options) option "word_bits" must be 32 or 64
GpuPost\Exception: the uncompressed bitmap would need 274877906984 bytes, more than gpupost.max_result_bytes (1073741824)
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(2)
}