--TEST--
gpu_prefix_sum: inclusive and exclusive, any length, 64-bit sums, host against device against PHP
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(99);
$paths = gp_device_available() ? ['host', 'device'] : ['host'];
$bad = 0;
foreach ([0, 1, 2, 255, 256, 2047, 2048, 2049, 4097, 100000, 600000] as $n) {
    $in = [];
    for ($i = 0; $i < $n; $i++) {
        $in[] = mt_rand(0, 3) ? mt_rand(-1000, 1000) : mt_rand(-(1 << 40), 1 << 40);
    }
    $incl = [];
    $s = 0;
    foreach ($in as $x) { $s += $x; $incl[] = $s; }
    $excl = $n ? array_merge([0], array_slice($incl, 0, -1)) : [];
    foreach ($paths as $path) {
        if (gp_on($path, fn() => gpu_prefix_sum($in)) !== $incl) { echo "$path inclusive $n\n"; $bad++; }
        if (gp_on($path, fn() => gpu_prefix_sum($in, false)) !== $excl) { echo "$path exclusive $n\n"; $bad++; }
    }
}
/* sums past 2^32 and near 2^62 stay exact */
$big = array_fill(0, 3000, 1 << 50);
foreach ($paths as $path) {
    $r = gp_on($path, fn() => gpu_prefix_sum($big));
    if ($r[2999] !== 3000 * (1 << 50)) { echo "$path big\n"; $bad++; }
}
/* keys are ignored: a list comes back */
var_dump(gpu_prefix_sum(['a' => 5, 9 => 6]));
echo "mismatches: $bad\n";
?>
--EXPECT--
array(2) {
  [0]=>
  int(5)
  [1]=>
  int(11)
}
mismatches: 0
