--TEST--
WAH: hand-checked vectors for 32- and 64-bit words (derivations in the comments), rows and bytes, host and device
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$paths = gp_device_available() ? ['host', 'device'] : ['host'];
$vectors = [
    /* w 32, g 31, nbits 64: groups ceil(64/31) = 3. rows 0,1 -> literal 0x3; rows 31,32 -> group 1
     * bits 0,1 -> 0x3; group 2 (rows 62..92) empty, alone -> literal 0 */
    [[0, 1, 31, 32], 32, 64, '4750574820000000' . '4000000000000000' . '03000000' . '03000000' . '00000000'],
    /* rows 0..61 = two full groups: a 1-fill of run 2, 0x80000000 | 1<<30 | 2; nbits 93 -> 3 groups,
     * the third empty */
    [range(0, 61), 32, 93, '4750574820000000' . '5d00000000000000' . '020000c0' . '00000000'],
    /* row 100 of 101: 100 = 3*31 + 7: a 0-fill of 3 groups 0x80000003, then literal 1<<7 */
    [[100], 32, 101, '4750574820000000' . '6500000000000000' . '03000080' . '80000000'],
    /* w 64, g 63, nbits 127: 3 groups; rows 0 | 63,64 | none */
    [[0, 63, 64], 64, 127, '4750574840000000' . '7f00000000000000' . '0100000000000000' . '0300000000000000' . '0000000000000000'],
    /* row 1000 of 1001: 1000 = 15*63 + 55: a 0-fill of 15 groups, then literal 1<<55 */
    [[1000], 64, 1001, '4750574840000000' . 'e903000000000000' . '0f00000000000080' . '0000000000008000'],
    /* no rows at all */
    [[], 32, 0, '4750574820000000' . '0000000000000000'],
];
$bad = 0;
foreach ($vectors as [$rows, $w, $nbits, $hex]) {
    $enc = bin2hex(gpu_encode_postings($rows, GPUPOST_WAH, GPUPOST_VALUES, ['word_bits' => $w, 'nbits' => $nbits]));
    if ($enc !== $hex) { echo "encode w$w ", json_encode($rows), ": $enc, want $hex\n"; $bad++; }
    if (ref_wah_rows(hex2bin($hex)) !== $rows) { echo "reference disagrees on $hex\n"; $bad++; }
    foreach ($paths as $path) {
        $dec = gp_on($path, fn() => gpu_decode_postings(hex2bin($hex), GPUPOST_WAH));
        if ($dec !== $rows) { echo "$path rows $hex: ", json_encode($dec), "\n"; $bad++; }
        $bytes = gp_on($path, fn() => gpu_wah_decompress(hex2bin($hex)));
        if (strlen($bytes) !== intdiv($nbits + 7, 8) || ref_rows_of_bytes($bytes) !== $rows) {
            echo "$path bytes $hex: ", bin2hex($bytes), "\n"; $bad++;
        }
    }
}
/* nbits defaults to the last row + 1 */
var_dump(bin2hex(substr(gpu_encode_postings([100], GPUPOST_WAH), 8, 8)));
echo "mismatches: $bad\n";
?>
--EXPECT--
string(16) "6500000000000000"
mismatches: 0
