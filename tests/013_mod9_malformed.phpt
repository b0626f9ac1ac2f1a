--TEST--
MOD9 malformed blobs: GpuPost\Exception naming format, offset and rule, the same on host and device
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$paths = gp_device_available() ? ['host', 'device'] : ['host'];
$cases = [
    'length not a multiple of 4' => [pack('N', 0x3c0014e5) . "\x01\x02", GPUPOST_VALUES],
    'starts with flags 01' => [pack('N2', 0x3c0014e5, 0x7f000001), GPUPOST_VALUES],
    'starts with flags 10' => [pack('N', 0xBf000001), GPUPOST_VALUES],
    'runs past the end' => [pack('N2', 0x3c0014e5, 0xFf000001), GPUPOST_VALUES],
    'empty posting' => [pack('N2', 0x3c0014e5, 0x3F000000), GPUPOST_DOCS],
    'first value 0' => [pack('N2', 0x00000000, 0x3c0014e5), GPUPOST_POSTINGS],
];
foreach ($cases as $name => [$blob, $mode]) {
    $msgs = [];
    foreach ($paths as $path) {
        $msgs[$path] = gp_error_of(fn() => gp_on($path, fn() => gpu_decode_postings($blob, GPUPOST_MOD9, $mode)));
        /* the device path hands malformed blobs to the host, which names the error */
    }
    echo "$name: {$msgs['host']}\n";
    if (count(array_unique($msgs)) !== 1) { echo "  paths differ: ", json_encode($msgs), "\n"; }
}
/* a batch names the blob by its key; the good blobs before it do not hide the error (without a
 * device the second round runs on the host too, with the same messages) */
foreach (['host', 'device'] as $path) {
    ini_set('gpupost.min_device_values', $path === 'device' ? '0' : (string)PHP_INT_MAX);
    echo gp_error_of(fn() => gpu_decode_postings_batch(['ok' => pack('N', 0x3c0014e5), 'bad' => "\x7f\0\0\1"])), "\n";
    echo gp_error_of(fn() => gpu_decode_postings_batch([pack('N', 0x3c0014e5), 5 => "abc"])), "\n";
}
/* after an error the next call works */
var_dump(gpu_decode_postings(pack('N', 0x3c0014e5)));
?>
--EXPECT--
length not a multiple of 4: GpuPost\Exception: MOD9: byte 4: length 6 is not a multiple of 4
starts with flags 01: GpuPost\Exception: MOD9: byte 4: a posting starts with flags 01 (only 00 or 11 may start one)
starts with flags 10: GpuPost\Exception: MOD9: byte 0: a posting starts with flags 10 (only 00 or 11 may start one)
runs past the end: GpuPost\Exception: MOD9: byte 4: last word has flags 1x: its posting runs past the end of the blob
empty posting: GpuPost\Exception: MOD9: byte 4: posting has no values
first value 0: GpuPost\Exception: MOD9: byte 0: posting's first value is 0 (no doc can be read from it)
GpuPost\Exception: MOD9: blob 'bad', byte 0: a posting starts with flags 01 (only 00 or 11 may start one)
GpuPost\Exception: MOD9: blob 5, byte 0: length 3 is not a multiple of 4
GpuPost\Exception: MOD9: blob 'bad', byte 0: a posting starts with flags 01 (only 00 or 11 may start one)
GpuPost\Exception: MOD9: blob 5, byte 0: length 3 is not a multiple of 4
array(5) {
  [0]=>
  int(1)
  [1]=>
  int(2)
  [2]=>
  int(3)
  [3]=>
  int(4)
  [4]=>
  int(5)
}
