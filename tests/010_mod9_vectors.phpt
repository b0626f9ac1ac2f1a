--TEST--
MOD9: every FORMATS.md vector (Yioop's own output) encodes byte for byte and decodes back, every mode, host and device
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$values = [
    ['3c0014e5', [1, 2, 3, 4, 5]],
    ['104b1388', [300, 5000]],
    ['fc053977b484a96cb034e3d0b04524d4b05565d870000019', range(1, 25)],
    ['ffffffff7f000001', array_fill(0, 25, 1)],
    ['3f000001', [1]],
];
/* [bytes, what is encoded, what Yioop's decoder reads back] */
$postings = [
    ['3c000c5f', [5 => [1, 4, 11]], [5 => [1, 4, 11]]],
    ['c93882597f000001', [40000 => [601, 602]], [40001 => [89, 90]]],
    ['09000005', [32768 => [5]], [32768 => [5]]],
    ['c000800078000007', [32767 => [7]], [32767 => [7]]],
    ['3c000113f8b111117f1fffff30000328', [3 => [2, 5], 10 => range(1, 26), 11 => [40]],
     [3 => [2, 5], 10 => range(1, 26), 11 => [40]]],
];
$paths = gp_device_available() ? ['host', 'device'] : ['host'];
$bad = 0;
foreach ($values as [$hex, $list]) {
    $enc = bin2hex(gpu_encode_postings($list));
    if ($enc !== $hex) { echo "encode ", json_encode($list), ": $enc, want $hex\n"; $bad++; }
    foreach ($paths as $path) {
        $dec = gp_on($path, fn() => gpu_decode_postings(hex2bin($hex)));
        if ($dec !== $list) { echo "$path decode $hex\n"; $bad++; }
        if ($dec !== ref_mod9_values(hex2bin($hex))) { echo "$path vs reference $hex\n"; $bad++; }
    }
}
foreach ($postings as [$hex, $in, $out]) {
    $enc = bin2hex(gpu_encode_postings($in, GPUPOST_MOD9, GPUPOST_POSTINGS));
    if ($enc !== $hex) { echo "encode posting: $enc, want $hex\n"; $bad++; }
    foreach ($paths as $path) {
        $dec = gp_on($path, fn() => gpu_decode_postings(hex2bin($hex), GPUPOST_MOD9, GPUPOST_POSTINGS));
        if ($dec !== $out) { echo "$path postings $hex: ", json_encode($dec), "\n"; $bad++; }
        $docs = gp_on($path, fn() => gpu_decode_postings(hex2bin($hex), GPUPOST_MOD9, GPUPOST_DOCS));
        if ($docs !== array_keys($out)) { echo "$path docs $hex\n"; $bad++; }
        $vals = gp_on($path, fn() => gpu_decode_postings(hex2bin($hex), GPUPOST_MOD9, GPUPOST_VALUES));
        if ($vals !== ref_mod9_values(hex2bin($hex))) { echo "$path values $hex\n"; $bad++; }
    }
}
/* the encoder's width quirk: 1..25 in 6-bit slots where 5 would do */
var_dump(bin2hex(substr(gpu_encode_postings(range(1, 25)), 0, 4)));
var_dump(gpu_decode_postings(hex2bin('c93882597f000001'), GPUPOST_MOD9, GPUPOST_POSTINGS));
echo "mismatches: $bad\n";
?>
--EXPECT--
string(8) "fc053977"
array(1) {
  [40001]=>
  array(2) {
    [0]=>
    int(89)
    [1]=>
    int(90)
  }
}
mismatches: 0
