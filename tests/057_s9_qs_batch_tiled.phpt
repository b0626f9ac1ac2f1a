--TEST--
S9 and QS batches (the device's tiled decoders, each blob with tiles of its own): hundreds of blobs (S9 of every delta rule, QS of dense and sparse lists), from empty to many tiles long, equal to single calls on the host; damaged blobs (one at a time, in the batch with two of its long lists) give the host's exception, blob key included; without a device each check runs once, on the host
--EXTENSIONS--
gpupost
--INI--
memory_limit=512M
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(57);
$bad = $checked = $rejected = 0;
foreach (['S9' => GPUPOST_S9, 'QS' => GPUPOST_QS] as $fname => $format) {
    $lists = $blobs = [];
    for ($i = 0; $i < 300; $i++) {
        $n = [0, mt_rand(1, 40), mt_rand(1, 3000), mt_rand(20000, 60000)][mt_rand(0, 9) % 4];
        if ($format === GPUPOST_S9) {
            $delta = mt_rand(0, 2);
            $list = $delta === 0 ? array_map(fn() => mt_rand(0, 1 << mt_rand(0, 27)), $n ? range(1, $n) : [])
                                 : rand_sorted($n, max(1, $n) * 4096, $delta === 1);
            if ($delta === 2) $list = array_values(array_unique($list));
            $options = ['delta' => $delta];
        } else {   /* dense (l = 0, duplicates), moderate, sparse */
            $list = rand_sorted($n, min(0xFFFFFFFF, max(1, $n) * [1, 16, 60000][mt_rand(0, 2)]), true);
            $options = ['c' => [0.5, 1, 5][mt_rand(0, 2)]];
        }
        $blobs["b$i"] = gpu_encode_postings($list, $format, GPUPOST_VALUES, $options);
        $lists["b$i"] = $list;
    }
    [[$host], [$dev]] = gp_outcomes(fn() => gpu_decode_postings_batch($blobs, $format));
    if ($host !== $lists || $dev !== $lists) { echo "$fname: valid batch differs\n"; $bad++; }
    /* two blobs alone */
    $two = ['x' => $blobs['b3'], 'y' => $blobs['b4']];
    if (gp_on('device', fn() => gpu_decode_postings_batch($two, $format)) !== ['x' => $lists['b3'], 'y' => $lists['b4']]) { echo "$fname: two differ\n"; $bad++; }
    $head = $format === GPUPOST_S9 ? 12 : 16;   /* headers are checked on the host */
    /* damage, one blob at a time, in the batch less all but two of its long lists (each many
     * tiles: they make the arrays, not the checks) */
    $long = 0;
    $damaged = array_filter($blobs, function ($b) use (&$long) { return strlen($b) < 20000 || $long++ < 2; });
    for ($m = 0; $m < 40; $m++) {
        $b = $damaged;
        do { $k = array_rand($b); } while (strlen($b[$k]) <= $head);
        $at = mt_rand($head, strlen($b[$k]) - 1);
        if ($m % 3 === 2) {
            $b[$k] = substr_replace($b[$k], pack('V', mt_rand(0, 0x7FFFFFFF) * 2 + mt_rand(0, 1)), $at & ~3, 4);
        } else {
            $b[$k][$at] = chr(ord($b[$k][$at]) ^ (1 << mt_rand(0, 7)));
        }
        [[$hv, $h], [$dv, $d]] = gp_outcomes(fn() => gpu_decode_postings_batch($b, $format));
        $checked++;
        $rejected += $h !== 'no exception';
        if ($h !== $d || $hv !== $dv) { echo "$fname: blob $k changed at $at: host '$h', device '$d'\n"; $bad++; }
    }
    printf("%s: %s values\n", $fname, array_sum(array_map('count', $lists)) > 1000000 ? 'over a million' : 'too few');
}
echo "checked: $checked, mismatches: $bad\n";
var_dump($rejected > 10 && $rejected < $checked - 10);
?>
--EXPECT--
S9: over a million values
QS: over a million values
checked: 80, mismatches: 0
bool(true)
