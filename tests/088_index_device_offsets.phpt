--TEST--
GpuPost\Index past a device copy's 32-bit offsets (lowered by the test hook GPUPOST_TEST_DEVICE_OFFSETS, as an index of 2^32 postings or positions reaches them): on one device the host answers, without a device failure; sharded over two and three devices whose shards each fit, the devices answer; shards that do not fit leave it to the host; the answers are the host's in every case
--EXTENSIONS--
gpupost
--SKIPIF--
<?php require __DIR__ . '/gpupost_test.inc'; if (!gp_device_available()) die('skip no OpenCL device: ' . gpu_info()['reason']); if (!gpu_info()['test_hooks']) die('skip a release build: the test hooks are compiled in by ./configure --enable-gpupost-test-hooks (scripts/test.sh)'); ?>
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';

/* a positional index with docs spread over 0..3999, so that every shard holds part of most
 * lists; its answers to AND, OR, phrase and ranked batches, and where they ran */
const OFFSET_CASES = <<<'CODE'
function offset_cases(string $place): array
{
    mt_srand(88);
    $lists = $lens = [];
    for ($t = 0; $t < 24; $t++) {
        $l = [];
        for ($i = 0, $df = mt_rand(50, 900); $i < $df; $i++) $l[mt_rand(0, 3999)] = [1 + mt_rand(0, 3), 6 + mt_rand(0, 3)];
        ksort($l);
        $lists["t$t"] = $l;
    }
    for ($d = 0; $d < 4000; $d++) $lens[$d] = mt_rand(1, 200);
    $ix = new GpuPost\Index($lists, GPUPOST_POSTINGS, ['device' => $place, 'doc_lengths' => $lens]);
    $queries = [];
    for ($q = 0; $q < 40; $q++) {
        $terms = [];
        for ($j = 0, $k = mt_rand(1, 3); $j < $k; $j++) $terms[] = 't' . mt_rand(0, 25);
        $queries["q$q"] = $terms;
    }
    $out = ['postings' => $ix->info()['postings'], 'positions' => $ix->info()['positions']];
    foreach (['and' => GPUPOST_AND, 'or' => GPUPOST_OR, 'phrase' => GPUPOST_PHRASE] as $name => $op) {
        $out[$name] = md5(serialize($ix->searchBatch($queries, ['op' => $op])));
    }
    $out['and top 5'] = md5(serialize($ix->searchBatch($queries, ['op' => GPUPOST_AND, 'limit' => 5])));
    /* and lists longer than the shards' cut weighs by walking them (it searches them instead;
     * past the lowered bound too, these stay on the host) */
    $long = [];
    for ($t = 0; $t < 3; $t++) {
        $l = [];
        for ($d = mt_rand(0, 2); $d < 600000; $d += mt_rand(1, 3 + $t)) $l[] = $d;
        $long["l$t"] = gpu_encode_postings($l, GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]);
    }
    $lx = new GpuPost\Index($long + ['s' => gpu_encode_postings(range(5, 599999, 7919), GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1])],
                            GPUPOST_S9, ['device' => $place]);
    $out['long'] = md5(serialize($lx->searchBatch([['l0', 'l1'], ['l1', 'l2', 's'], ['l0', 's']], ['op' => GPUPOST_AND])));
    $out['long shards'] = $lx->info()['device_shards'];
    /* the cut weighs the lists (equal devices: equal parts, within a doc range's postings) */
    $parts = $lx->info()['shard_postings'];
    $fair = $parts && array_sum($parts) === $lx->info()['postings'] && max($parts) - min($parts) < 0.02 * array_sum($parts);
    $out['long cut'] = $parts ? ($fair ? 'even' : 'UNEVEN ' . json_encode($parts)) : 'none';
    $out['backend'] = $ix->info()['last_backend'];
    $out['shards'] = $ix->info()['device_shards'];
    $out['failures'] = gpu_info()['device_failures'];
    return $out;
}
CODE;
eval(OFFSET_CASES);

$want = gp_on('host', fn() => offset_cases('host'));
$ran = ['backend' => 1, 'shards' => 1, 'failures' => 1, 'long shards' => 1, 'long cut' => 1];
$answers = array_diff_key($want, $ran);
/* the lowered bound against this index: over its positions, under half of them */
$cap = intdiv($want['positions'], 2) + intdiv($want['positions'], 8);
echo "positions over the bound: ", $want['positions'] > $cap ? 'yes' : 'no', ", over its half: ",
    intdiv($want['positions'], 2) > $cap ? 'yes' : 'no', "\n";

$info = gpu_info();
$me = $info['platform']['index'] . ':' . $info['device']['index'];
$child = OFFSET_CASES . 'echo json_encode(offset_cases("all"));';
foreach (["one device" => [$me, 'spread', $cap], "two devices" => ["$me,$me", 'all', $cap],
          "three devices" => ["$me,$me,$me", 'all', $cap],
          "two devices, shards over the bound" => ["$me,$me", 'all', intdiv($want['positions'], 3)],
          "one device, no bound" => [$me, 'spread', ''], "two devices, no bound" => ["$me,$me", 'all', '']] as $name => [$device, $multi, $bound]) {
    [$out, $rc] = gp_child($child, ['gpupost.device' => $device, 'gpupost.multi_device' => $multi], 'device', [],
                           ['GPUPOST_TEST_DEVICE_OFFSETS' => (string)$bound]);
    $got = json_decode($out, true);
    if (!is_array($got)) {
        echo "$name: child failed ($rc): $out\n";
        continue;
    }
    echo "$name: ", array_diff_key($got, $ran) == $answers ? 'same answers' : 'DIFFERENT answers',
        ", backend {$got['backend']}, {$got['shards']} shards (long lists: {$got['long shards']}, cut {$got['long cut']}), {$got['failures']} device failures\n";
}
?>
--EXPECT--
positions over the bound: yes, over its half: no
one device: same answers, backend host, 0 shards (long lists: 0, cut none), 0 device failures
two devices: same answers, backend opencl, 2 shards (long lists: 0, cut none), 0 device failures
three devices: same answers, backend opencl, 3 shards (long lists: 0, cut none), 0 device failures
two devices, shards over the bound: same answers, backend host, 0 shards (long lists: 0, cut none), 0 device failures
one device, no bound: same answers, backend opencl, 0 shards (long lists: 0, cut none), 0 device failures
two devices, no bound: same answers, backend opencl, 2 shards (long lists: 2, cut even), 0 device failures
