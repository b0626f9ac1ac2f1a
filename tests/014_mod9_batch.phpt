--TEST--
Batch decoding equals single calls, keeps keys and order, on host and device
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(7);
$paths = gp_device_available() ? ['host', 'device'] : ['host'];
$blobs = ['first' => gpu_encode_postings([1, 2, 3]), 42 => '', 'post' => gpu_encode_postings(rand_mod9_postings(5), GPUPOST_MOD9, GPUPOST_POSTINGS),
          7 => gpu_encode_postings(rand_mod9_values(2000)), 'one' => pack('N', 0x09000005)];
$bad = 0;
foreach ([GPUPOST_VALUES, GPUPOST_DOCS, GPUPOST_POSTINGS] as $mode) {
    foreach ($paths as $path) {
        $batch = gp_on($path, fn() => gpu_decode_postings_batch($blobs, GPUPOST_MOD9, $mode));
        if (array_keys($batch) !== array_keys($blobs)) { echo "keys differ\n"; $bad++; }
        foreach ($blobs as $k => $b) {
            $single = gp_on('host', fn() => gpu_decode_postings($b, GPUPOST_MOD9, $mode));
            if ($batch[$k] !== $single) { echo "$path mode $mode key $k\n"; $bad++; }
        }
    }
}
var_dump(array_keys(gpu_decode_postings_batch($blobs)));
var_dump(gpu_decode_postings_batch([]));
echo gp_error_of(fn() => gpu_decode_postings_batch(['a' => 'ok..', 'b' => 5])), "\n";
echo gp_error_of(fn() => gpu_decode_postings_batch([[1]])), "\n";
/* a reference to a string is a string */
$s = pack('N', 0x3f000001);
$arr = ['r' => &$s];
var_dump(gpu_decode_postings_batch($arr));
echo "mismatches: $bad\n";
?>
--EXPECT--
array(5) {
  [0]=>
  string(5) "first"
  [1]=>
  int(42)
  [2]=>
  string(4) "post"
  [3]=>
  int(7)
  [4]=>
  string(3) "one"
}
array(0) {
}
TypeError: gpu_decode_postings_batch(): Argument #1 ($blobs) must contain only strings, int given
TypeError: gpu_decode_postings_batch(): Argument #1 ($blobs) must contain only strings, array given
array(1) {
  ["r"]=>
  array(1) {
    [0]=>
    int(1)
  }
}
mismatches: 0
