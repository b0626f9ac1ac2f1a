--TEST--
Tiled single-list decoders (MOD9, S9, QS) against the host on lists of many tiles, valid and with random bit flips: the same values or the same exception
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(54);
/* Lists long enough for many work-groups and, per tile, several staging chunks; the QS lists
 * include l = 0 with long runs of adjacent set bits, where the order check crosses tiles. */
$lists = [
    'MOD9 small' => [GPUPOST_MOD9, array_map(fn() => mt_rand(1, 3), range(1, 40000)), []],
    'MOD9 mixed' => [GPUPOST_MOD9, rand_mod9_values(20000), []],
    /* one word a value: 150k words, many tiles */
    'MOD9 wide' => [GPUPOST_MOD9, array_map(fn() => mt_rand(1 << 20, (1 << 28) - 1), range(1, 150000)), []],
    'S9 delta 0' => [GPUPOST_S9, array_map(fn() => mt_rand(0, 1 << mt_rand(0, 27)), range(1, 30000)), ['delta' => 0]],
    'S9 delta 1' => [GPUPOST_S9, rand_sorted(30000, 1 << 30, true), ['delta' => 1]],
    'S9 delta 2' => [GPUPOST_S9, array_map(fn($i) => $i * 2 + mt_rand(0, 1), range(0, 60000)), ['delta' => 2]],
    'QS dense dups' => [GPUPOST_QS, rand_sorted(70000, 20000, true), []],
    'QS l = 0' => [GPUPOST_QS, rand_sorted(70000, 60000, true), ['c' => 0.5]],
    'QS sparse' => [GPUPOST_QS, rand_sorted(50000), []],
];
$bad = $checked = $rejected = 0;
$small = [GPUPOST_MOD9 => gpu_encode_postings([5, 6, 7]), GPUPOST_S9 => gpu_encode_postings([5, 6, 7], GPUPOST_S9),
          GPUPOST_QS => gpu_encode_postings([5, 6, 7], GPUPOST_QS)];
foreach ($lists as $name => [$format, $list, $options]) {
    if ($format === GPUPOST_S9 && ($options['delta'] ?? 0) === 2) {
        $list = array_values(array_unique($list));
    }
    $blob = gpu_encode_postings($list, $format, GPUPOST_VALUES, $options);
    $host = gp_on('host', fn() => gpu_decode_postings($blob, $format));
    $dev = gp_on('device', fn() => gpu_decode_postings($blob, $format));
    $checked++;
    if ($host !== $dev) { echo "$name: device differs on the valid list\n"; $bad++; }
    if ($format !== GPUPOST_MOD9 && $host !== $list) { echo "$name: host differs from the input\n"; $bad++; }
    for ($m = 0; $m < 60; $m++) {
        /* one bit flipped anywhere past the magic, or a whole word overwritten */
        $b = $blob;
        $at = mt_rand(4, strlen($b) - 1);
        if ($m % 4 === 3 && strlen($b) >= 8) {
            $at &= ~3;
            $b = substr_replace($b, pack('V', mt_rand(0, 0x7FFFFFFF) * 2 + mt_rand(0, 1)), $at, 4);
        } else {
            $b[$at] = chr(ord($b[$at]) ^ (1 << mt_rand(0, 7)));
        }
        [[$hv, $h], [$dv, $d]] = gp_outcomes(fn() => gpu_decode_postings($b, $format));
        $checked++;
        $rejected += $h !== 'no exception';
        if ($h !== $d || $hv !== $dv) { echo "$name flip at $at: host '$h', device '$d'\n"; $bad++; }
        /* and inside a batch, where the device runs the per-word kernels instead of the tiles */
        if ($m % 3 === 0) {
            $pair = ['ok' => $small[$format], 'x' => $b];
            $hb = gp_error_of(fn() => gp_on('host', fn() => gpu_decode_postings_batch($pair, $format)));
            $db = gp_error_of(fn() => gp_on('device', fn() => gpu_decode_postings_batch($pair, $format)));
            if ($hb !== $db) { echo "$name flip at $at in a batch: host '$hb', device '$db'\n"; $bad++; }
        }
    }
}
echo "checked: $checked, mismatches: $bad\n";
var_dump($rejected > 100);

/* A decrease exactly where a tile ends (upper bit 32767 | 32768, a multiple of the tile for any
 * work-group of 32 to 256 items): v_i = (i >> 2) << 4 | low, so that each four elements share
 * an upper part and sit at upper bits 5m .. 5m+3; m = 6553 puts elements 26214 and 26215 at bits
 * 32767 and 32768. c = 5 makes l = floor(log2(5 * last / n)) = 4. */
$list = [];
for ($i = 0; $i < 40000; $i++) {
    $list[] = (($i >> 2) << 4) | (1 + 3 * ($i & 3));
}
$blob = gpu_encode_postings($list, GPUPOST_QS, GPUPOST_VALUES, ['c' => 5]);
var_dump(ord($blob[5]));
var_dump(gp_on('device', fn() => gpu_decode_postings($blob, GPUPOST_QS)) === $list);
/* element 26215's low bits (10) at lower bit 26215 * 4 = 104860: the high half of byte 13107 */
$at = 16 + (26215 * 4 >> 3);
$bad_blob = $blob;
$bad_blob[$at] = chr(ord($bad_blob[$at]) & 0x0F);
echo gp_error_of(fn() => gp_on('host', fn() => gpu_decode_postings($bad_blob, GPUPOST_QS))), "\n";
echo gp_error_of(fn() => gp_on('device', fn() => gpu_decode_postings($bad_blob, GPUPOST_QS))), "\n";
/* the same decrease in a batch: for the per-word kernel it sits between upper words 1023 and 1024 */
echo gp_error_of(fn() => gp_on('device', fn() => gpu_decode_postings_batch(['ok' => $small[GPUPOST_QS], 'x' => $bad_blob], GPUPOST_QS))), "\n";
?>
--EXPECTF--
checked: 549, mismatches: 0
bool(true)
int(4)
bool(true)
GpuPost\Exception: %s26215%s
GpuPost\Exception: %s26215%s
GpuPost\Exception: %sblob 'x'%s26215%s
