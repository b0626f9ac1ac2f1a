--TEST--
VBYTE and GROUP_VARINT: hand-checked vectors (FORMATS.md, derivations there and in the comments), both ways, host and device, and the PHP reference decoders
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$paths = gp_device_available() ? ['host', 'device'] : ['host'];
$vectors = [
    /* the book's: 80 = 1010000 in one byte; 320 = 10 1000000: 1000000 with the high bit, then 10 */
    [GPUPOST_VBYTE, [80, 320], 0, '47505642' . '02000000' . '00000000' . '50c002'],
    /* gaps 3, 127, 2^14: 2^14's seven-bit groups are 0, 0, 1 */
    [GPUPOST_VBYTE, [3, 130, 16514], 1, '47505642' . '03000000' . '01000000' . '037f808001'],
    /* stored 0, 1 - 0 - 1, 5 - 1 - 1 */
    [GPUPOST_VBYTE, [0, 1, 5], 2, '47505642' . '03000000' . '02000000' . '000003'],
    /* 2^32 - 1: four groups of seven ones, then 1111 */
    [GPUPOST_VBYTE, [4294967295], 0, '47505642' . '01000000' . '00000000' . 'ffffffff0f'],
    [GPUPOST_VBYTE, [], 1, '47505642' . '00000000' . '01000000'],
    /* lengths 1, 2, 3, 4 (codes 00 01 10 11, the first in the low bits: e4), then 7 and three
     * unused slots of one byte holding 0 */
    [GPUPOST_GROUP_VARINT, [1, 256, 65536, 16777216, 7], 0,
     '47504756' . '05000000' . '00000000' . 'e4' . '01' . '0001' . '000001' . '00000001' . '00' . '07000000'],
    [GPUPOST_GROUP_VARINT, [10, 20, 30, 40], 1, '47504756' . '04000000' . '01000000' . '000a0a0a0a'],
    [GPUPOST_GROUP_VARINT, [5], 2, '47504756' . '01000000' . '02000000' . '0005000000'],
    /* lengths 4, 4, 4, 1: codes 11, 11, 11 from the low bits up and 00 on top: 3f */
    [GPUPOST_GROUP_VARINT, [4294967295, 16777216, 4294967295, 0], 0,
     '47504756' . '04000000' . '00000000' . '3f' . 'ffffffff' . '00000001' . 'ffffffff' . '00'],
    [GPUPOST_GROUP_VARINT, [], 0, '47504756' . '00000000' . '00000000'],
];
$bad = 0;
foreach ($vectors as [$format, $list, $delta, $hex]) {
    $enc = bin2hex(gpu_encode_postings($list, $format, GPUPOST_VALUES, ['delta' => $delta]));
    if ($enc !== $hex) { echo "encode ", json_encode($list), " delta $delta: $enc, want $hex\n"; $bad++; }
    $ref = $format === GPUPOST_VBYTE ? ref_vbyte_decode(hex2bin($hex)) : ref_gvarint_decode(hex2bin($hex));
    if ($ref !== $list) { echo "reference disagrees on $hex\n"; $bad++; }
    foreach ($paths as $path) {
        $dec = gp_on($path, fn() => gpu_decode_postings(hex2bin($hex), $format));
        if ($dec !== $list) { echo "$path decode $hex: ", json_encode($dec), "\n"; $bad++; }
    }
}
echo "mismatches: $bad\n";
?>
--EXPECT--
mismatches: 0
