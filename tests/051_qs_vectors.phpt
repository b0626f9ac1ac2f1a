--TEST--
QS: hand-checked vectors (derivations in the comments), both ways, host and device
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$paths = gp_device_available() ? ['host', 'device'] : ['host'];
$vectors = [
    /* [3,4,7,13,14,15,21,43]: n = 8, last = 43, l = floor(log2(43/8 = 5.4)) = 2.
     * lower (x & 3) = 3,0,3,1,2,3,1,3, two bits each from bit 0: bytes 0x73 0xDE -> 1 word.
     * upper x>>2 = 0,1,1,3,3,3,5,10, bit (x>>2)+i = 0,2,3,6,7,8,11,17 -> 0x000209CD;
     * U = ceil((10 + 8) / 32) = 1 word. */
    [[3, 4, 7, 13, 14, 15, 21, 43], 1.0,
     '4750515301020000' . '08000000' . '2b000000' . '73de0000' . 'cd090200'],
    /* c = 0.5 halves last/n: 2.7 -> l = 1; lower bits 1,0,1,1,0,1,1,1 = 0xED;
     * upper x>>1 = 1,2,3,6,7,7,10,21, bits 1,3,5,9,11,12,16,28 -> 0x10011A2A */
    [[3, 4, 7, 13, 14, 15, 21, 43], 0.5,
     '4750515301010000' . '08000000' . '2b000000' . 'ed000000' . '2a1a0110'],
    /* dense list, l = 0: [0,0,1,2]: last/n = 0.5 -> l = 0, no lower words; bits x+i = 0,1,3,5 -> 0x2B */
    [[0, 0, 1, 2], 1.0, '4750515301000000' . '04000000' . '02000000' . '2b000000'],
    /* the largest value alone: n = 1, last = 2^32-1, l = 31; lower = 0x7FFFFFFF;
     * upper bit (x >> 31) + 0 = 1 -> 0x00000002, U = ceil((1 + 1) / 32) = 1 */
    [[4294967295], 1.0, '47505153011f0000' . '01000000' . 'ffffffff' . 'ffffff7f' . '02000000'],
    /* empty */
    [[], 1.0, '4750515301000000' . '00000000' . '00000000'],
];
$bad = 0;
foreach ($vectors as [$list, $c, $hex]) {
    $enc = bin2hex(gpu_encode_postings($list, GPUPOST_QS, GPUPOST_VALUES, ['c' => $c]));
    if ($enc !== $hex) { echo "encode ", json_encode($list), " c $c: $enc, want $hex\n"; $bad++; }
    if (ref_qs_decode(hex2bin($hex)) !== $list) { echo "reference disagrees on $hex\n"; $bad++; }
    foreach ($paths as $path) {
        $dec = gp_on($path, fn() => gpu_decode_postings(hex2bin($hex), GPUPOST_QS));
        if ($dec !== $list) { echo "$path decode $hex: ", json_encode($dec), "\n"; $bad++; }
    }
}
echo "mismatches: $bad\n";
?>
--EXPECT--
mismatches: 0
