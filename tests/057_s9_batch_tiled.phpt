--TEST--
S9 batches (the device's tiled decoder, each blob with tiles of its own): hundreds of blobs of every delta rule, from empty to many tiles long, equal to single calls on the host; damaged blobs give the host's exception, blob key included
--EXTENSIONS--
gpupost
--INI--
memory_limit=512M
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(57);
$lists = $blobs = [];
for ($i = 0; $i < 300; $i++) {
    $n = [0, mt_rand(1, 40), mt_rand(1, 3000), mt_rand(20000, 60000)][mt_rand(0, 9) % 4];
    $delta = mt_rand(0, 2);
    $list = $delta === 0 ? array_map(fn() => mt_rand(0, 1 << mt_rand(0, 27)), $n ? range(1, $n) : [])
                         : rand_sorted($n, max(1, $n) * 4096, $delta === 1);
    if ($delta === 2) $list = array_values(array_unique($list));
    $blobs["b$i"] = gpu_encode_postings($list, GPUPOST_S9, GPUPOST_VALUES, ['delta' => $delta]);
    $lists["b$i"] = $list;
}
$bad = $checked = $rejected = 0;
$host = gp_on('host', fn() => gpu_decode_postings_batch($blobs, GPUPOST_S9));
$dev = gp_on('device', fn() => gpu_decode_postings_batch($blobs, GPUPOST_S9));
if ($host !== $lists || $dev !== $lists) { echo "valid batch differs\n"; $bad++; }
/* two blobs alone, and one alone in a batch */
$two = ['x' => $blobs['b3'], 'y' => $blobs['b4']];
if (gp_on('device', fn() => gpu_decode_postings_batch($two, GPUPOST_S9)) !== ['x' => $lists['b3'], 'y' => $lists['b4']]) { echo "two differ\n"; $bad++; }
for ($m = 0; $m < 40; $m++) {
    $b = $blobs;
    do { $k = array_rand($b); } while (strlen($b[$k]) <= 12);
    $at = mt_rand(12, strlen($b[$k]) - 1);   /* the payload: the headers are checked on the host */
    if ($m % 3 === 2) {
        $b[$k] = substr_replace($b[$k], pack('V', mt_rand(0, 0x7FFFFFFF) * 2 + mt_rand(0, 1)), $at & ~3, 4);
    } else {
        $b[$k][$at] = chr(ord($b[$k][$at]) ^ (1 << mt_rand(0, 7)));
    }
    $h = gp_error_of(fn() => gp_on('host', fn() => gpu_decode_postings_batch($b, GPUPOST_S9)));
    $d = gp_error_of(fn() => gp_on('device', fn() => gpu_decode_postings_batch($b, GPUPOST_S9)));
    $hv = $h === 'no exception' ? gp_on('host', fn() => gpu_decode_postings_batch($b, GPUPOST_S9)) : null;
    $dv = $d === 'no exception' ? gp_on('device', fn() => gpu_decode_postings_batch($b, GPUPOST_S9)) : null;
    $checked++;
    $rejected += $h !== 'no exception';
    if ($h !== $d || $hv !== $dv) { echo "blob $k changed at $at: host '$h', device '$d'\n"; $bad++; }
}
printf("%s values\n", array_sum(array_map('count', $lists)) > 1000000 ? 'over a million' : 'too few');
echo "checked: $checked, mismatches: $bad\n";
var_dump($rejected > 5 && $rejected < $checked - 5);
?>
--EXPECT--
over a million values
checked: 40, mismatches: 0
bool(true)
