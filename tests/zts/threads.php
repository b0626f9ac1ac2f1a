<?php
/* One thread's work in the threaded test (tests/zts/threads.c runs it on several threads at
 * once; $thread is this thread's number): batches of every size decoded on the host path and on
 * the device (alternate threads), MOD9 postings round trips, an index of its own queried, and the
 * persistent index every thread shares, each answer checked against plain PHP or the setup's. */
mt_srand(1000 + $thread);
$checks = 0;
$bad = [];
$check = function (bool $ok, string $what) use (&$checks, &$bad) {
    $checks++;
    if (!$ok) $bad[] = $what;
};
ini_set('gpupost.min_device_values', $thread % 2 ? '0' : '1000000000');
$dir = getenv('GPUPOST_ZTS_WORK');
$shared = json_decode(file_get_contents("$dir/shared.json"), true);
for ($round = 0; $round < 25; $round++) {
    $lists = [];
    for ($i = 0; $i < 6; $i++) {
        $l = [];
        for ($k = mt_rand(1, 4000), $v = 0; $k > 0; $k--) $l[] = $v += mt_rand(1, 60);
        $lists["k$i"] = $l;
    }
    $blobs = array_map(fn($l) => gpu_encode_postings($l, GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]), $lists);
    $check(gpu_decode_postings_batch($blobs, GPUPOST_S9) === $lists, "S9 batch, round $round");
    $postings = [];
    foreach (array_slice($lists['k0'], 0, 300) as $d) $postings[$d] = [mt_rand(1, 500), mt_rand(501, 900)];
    $m = gpu_encode_postings($postings, GPUPOST_MOD9, GPUPOST_POSTINGS);
    $check(gpu_decode_postings($m, GPUPOST_MOD9, GPUPOST_POSTINGS) === $postings, "MOD9 postings, round $round");
    $ix = new GpuPost\Index(array_map(fn($l) => array_fill_keys($l, [1]), $lists), GPUPOST_POSTINGS,
                            ['device' => $thread % 2 ? 'auto' : 'host']);
    $want = array_values(array_intersect($lists['k0'], $lists['k1']));
    $check($ix->search(['k0', 'k1']) === $want, "own index AND, round $round");
    unset($ix);
    $p = GpuPost\Index::open("$dir/shared.gpix", ['persistent' => true]);
    $op = [GPUPOST_AND, GPUPOST_OR, GPUPOST_PHRASE][$round % 3];
    $check($p->searchBatch($shared['queries'], ['op' => $op]) === $shared['answers'][$op], "shared index op $op, round $round");
}
echo $bad ? "thread $thread: MISMATCH in " . count($bad) . " of $checks checks: " . implode('; ', array_slice($bad, 0, 3)) . "\n"
          : "thread $thread: ok, $checks checks (" . gpu_info()['last_backend'] . ")\n";
