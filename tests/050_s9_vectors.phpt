--TEST--
S9: hand-checked vectors (derivations in the comments), both ways, host and device
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$paths = gp_device_available() ? ['host', 'device'] : ['host'];
$vectors = [
    /* [1,2,3], delta 0: 28x1 cannot hold 2; 14x2 (selector 7) holds all three, first value in the
     * top slot: 7<<28 | 1<<26 | 2<<24 | 3<<22 = 0x76C00000, little-endian 0000c076 */
    [[1, 2, 3], 0, '4750533903000000' . '00000000' . '0000c076'],
    /* 30 ones: a full 28x1 word 0x8FFFFFFF, then the last word holds the other two, left-aligned:
     * 0x8C000000 */
    [array_fill(0, 30, 1), 0, '475053391e000000' . '00000000' . 'ffffff8f' . '0000008c'],
    /* delta 1, [10,12,12,20]: gaps 10,2,0,8 need 4 bits; 7x4 (selector 5):
     * 5<<28 | 10<<24 | 2<<20 | 0<<16 | 8<<12 = 0x5A208000 */
    [[10, 12, 12, 20], 1, '4750533904000000' . '01000000' . '0080205a'],
    /* delta 2, [0,1,5]: x0 = 0, gaps x_i - x_{i-1} - 1 = 0, 3; 14x2: 7<<28 | 3<<22 = 0x70C00000 */
    [[0, 1, 5], 2, '4750533903000000' . '02000000' . '0000c070'],
    /* one 28-bit value: selector 0, 0x0FFFFFFF */
    [[(1 << 28) - 1], 0, '4750533901000000' . '00000000' . 'ffffff0f'],
    /* the empty list: header only */
    [[], 1, '4750533900000000' . '01000000'],
];
$bad = 0;
foreach ($vectors as [$list, $delta, $hex]) {
    $enc = bin2hex(gpu_encode_postings($list, GPUPOST_S9, GPUPOST_VALUES, ['delta' => $delta]));
    if ($enc !== $hex) { echo "encode ", json_encode($list), " delta $delta: $enc, want $hex\n"; $bad++; }
    if (ref_s9_decode(hex2bin($hex)) !== $list) { echo "reference disagrees on $hex\n"; $bad++; }
    foreach ($paths as $path) {
        $dec = gp_on($path, fn() => gpu_decode_postings(hex2bin($hex), GPUPOST_S9));
        if ($dec !== $list) { echo "$path decode $hex: ", json_encode($dec), "\n"; $bad++; }
    }
}
echo "mismatches: $bad\n";
?>
--EXPECT--
mismatches: 0
