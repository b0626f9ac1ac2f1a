<?php
/* Run once before the threads (tests/zts/threads.c): the index file every thread opens as a
 * persistent index, and the answers its queries must get, computed here. */
mt_srand(20);
$lists = [];
for ($t = 0; $t < 200; $t++) {
    $l = [];
    for ($i = mt_rand(1, 3000); $i > 0; $i--) $l[mt_rand(0, 40000)] = [mt_rand(1, 9), mt_rand(10, 30)];
    ksort($l);
    $lists["t$t"] = $l;
}
$dir = getenv('GPUPOST_ZTS_WORK');
$ix = new GpuPost\Index($lists, GPUPOST_POSTINGS, ['device' => 'host']);
$ix->save("$dir/shared.gpix");
$queries = [];
for ($q = 0; $q < 50; $q++) $queries["q$q"] = ['t' . mt_rand(0, 199), 't' . mt_rand(0, 199)];
$answers = [];
foreach ([GPUPOST_AND, GPUPOST_OR, GPUPOST_PHRASE] as $op) $answers[$op] = $ix->searchBatch($queries, ['op' => $op]);
file_put_contents("$dir/shared.json", json_encode(['queries' => $queries, 'answers' => $answers]));
echo "setup: ", count($lists), " lists, ", gpu_info()['backend'], "\n";
