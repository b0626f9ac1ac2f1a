--TEST--
MOD9 edges: empty blob, one word, every selector, the largest value, zero slots, the combined doc form's bounds
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$paths = gp_device_available() ? ['host', 'device'] : ['host'];
$bad = 0;
$check = function (string $what, string $blob, int $mode, $want) use ($paths, &$bad) {
    foreach ($paths as $path) {
        $got = gp_on($path, fn() => gpu_decode_postings($blob, GPUPOST_MOD9, $mode));
        if ($got !== $want) {
            echo "$what on $path: ", json_encode($got), " want ", json_encode($want), "\n";
            $bad++;
        }
    }
};
$check('empty blob', '', GPUPOST_VALUES, []);
$check('empty blob, postings', '', GPUPOST_POSTINGS, []);
$check('one word', pack('N', 0x3c0014e5), GPUPOST_VALUES, [1, 2, 3, 4, 5]);
/* every selector, full: slot count x bits */
foreach ([[0b00, 1, 28], [0b01, 2, 14], [0b10, 3, 9], [0b1100, 4, 6], [0b1101, 5, 5],
          [0b1110, 6, 4], [0b11110, 7, 3], [0b111110, 12, 2], [0b111111, 24, 1]] as [$sel, $n, $bits]) {
    $selbits = strlen(decbin($sel)) <= 2 ? 2 : strlen(decbin($sel));
    if ($sel === 0) $selbits = 2;
    $w = $sel << (30 - $selbits);
    $list = [];
    for ($i = 0; $i < $n; $i++) {
        $v = $bits === 1 ? 1 : (1 << $bits) - 1 - ($i % 2);
        $list[] = $v;
        $w |= $v << (($n - 1 - $i) * $bits);
    }
    $check("selector " . decbin($sel), pack('N', $w), GPUPOST_VALUES, $list);
    /* the same word with its top slot empty: one value fewer */
    $w2 = $w & ~(((1 << $bits) - 1) << (($n - 1) * $bits));
    if ($n > 1) $check("selector " . decbin($sel) . " top slot 0", pack('N', $w2), GPUPOST_VALUES, array_slice($list, 1));
    /* a zero slot in the middle ends the word: only the slots below it count */
    if ($n > 2) {
        $w3 = $w & ~(((1 << $bits) - 1) << $bits);
        $check("selector " . decbin($sel) . " slot 1 zero", pack('N', $w3), GPUPOST_VALUES, [$list[$n - 1]]);
    }
}
$check('selector 00 with 0', pack('N', 0), GPUPOST_VALUES, [0]);
$check('all slots empty', pack('N', 0x3F000000), GPUPOST_VALUES, []);
$max = (1 << 28) - 1;
$check('largest value', gpu_encode_postings([$max, 1, $max]), GPUPOST_VALUES, [$max, 1, $max]);
var_dump(bin2hex(gpu_encode_postings([$max])));
var_dump(bin2hex(gpu_encode_postings([])));
/* the combined form: 2^15 <= doc < 2^18 and first gap < 1024 (FORMATS.md) */
foreach ([[32767, 7], [32768, 5], [32768, 511], [32768, 512], [32768, 1023], [32768, 1024],
          [262143, 1], [262143, 511], [262144, 1], [0, 1], [5, 1023]] as [$doc, $gap]) {
    $blob = gpu_encode_postings([$doc => [$gap, $gap + 3]], GPUPOST_MOD9, GPUPOST_POSTINGS);
    $combined = (ref_mod9_values($blob)[0] & 0x08000000) !== 0;
    /* Yioop reads a first gap of 512..1023 in the combined form back as doc+1, gap-512 */
    $want = ($combined && $gap >= 512) ? [$doc + 1 => [$gap - 512, $gap - 509]] : [$doc => [$gap, $gap + 3]];
    printf("doc %d gap %d: %s\n", $doc, $gap, $combined ? 'combined' : 'separate');
    $check("combined $doc/$gap", $blob, GPUPOST_POSTINGS, $want);
}
/* a posting with no positions and one whose doc sits alone in a 28-bit word */
$check('doc without positions', gpu_encode_postings([7 => [], 9 => [1]], GPUPOST_MOD9, GPUPOST_POSTINGS),
       GPUPOST_POSTINGS, [7 => [], 9 => [1]]);
$check('large doc', gpu_encode_postings([(1 << 27) - 2 => [3]], GPUPOST_MOD9, GPUPOST_POSTINGS),
       GPUPOST_POSTINGS, [(1 << 27) - 2 => [3]]);
/* a posting whose first word holds no values: the doc comes from the next word */
$check('doc in second word', pack('N2', 0xFF000000, 0x40000000 | 11), GPUPOST_DOCS, [10]);
echo "mismatches: $bad\n";
?>
--EXPECT--
string(8) "0fffffff"
string(8) "3f000000"
doc 32767 gap 7: separate
doc 32768 gap 5: combined
doc 32768 gap 511: combined
doc 32768 gap 512: combined
doc 32768 gap 1023: combined
doc 32768 gap 1024: separate
doc 262143 gap 1: combined
doc 262143 gap 511: combined
doc 262144 gap 1: separate
doc 0 gap 1: separate
doc 5 gap 1023: separate
mismatches: 0
