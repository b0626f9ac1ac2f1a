<?php
/* The host path's single-query rows, for comparing two builds side by side (not a test): the
 * first 2,000 AND-log queries of a gen_corpus query log as AND, OR, AND top 10 and OR top 10, one
 * search() a call, and 2,000 MOD9 POSTINGS decodes of a list of dense and of sparse docs; the best
 * of PASSES passes, in queries (or decodes) a second. Under `valgrind --tool=callgrind` with
 * PASSES 1, the instructions of two builds compare whatever else the machine is doing.
 *
 *   php -d extension=modules/gpupost.so -d gpupost.min_device_values=999999999 \
 *       bench/host_rows.php INDEX.gpix QUERIES [PASSES]
 */
[, $file, $qfile] = $argv + [null, null, null];
if ($qfile === null) {
    fwrite(STDERR, "usage: php bench/host_rows.php INDEX.gpix QUERIES [PASSES]\n");
    exit(2);
}
$passes = (int)($argv[3] ?? 3);
$ix = GpuPost\Index::open($file, ['device' => 'host']);
$q = [];
foreach (file($qfile, FILE_IGNORE_NEW_LINES) as $l) {
    $w = explode(' ', $l);
    if (array_shift($w) === 'and') $q[] = $w;
}
$q = array_slice($q, 0, 2000);
$best = function (callable $pass, int $n) use ($passes): float {
    $b = 0.0;
    for ($i = 0; $i < $passes; $i++) {
        $t = hrtime(true);
        $pass();
        $b = max($b, $n / ((hrtime(true) - $t) / 1e9));
    }
    return $b;
};
$out = [];
foreach (['AND' => [GPUPOST_AND, 0], 'OR' => [GPUPOST_OR, 0], 'AND top 10' => [GPUPOST_AND, 10], 'OR top 10' => [GPUPOST_OR, 10]] as $name => [$op, $limit]) {
    $out[] = sprintf("%s %.0f", $name, $best(function () use ($ix, $q, $op, $limit) {
        foreach ($q as $terms) $ix->search($terms, ['op' => $op, 'limit' => $limit]);
    }, count($q)));
}
$dense = gpu_encode_postings(array_fill_keys(range(0, 999), [1, 3, 5]), GPUPOST_MOD9, GPUPOST_POSTINGS);
$sparse = gpu_encode_postings(array_fill_keys(range(0, 99900, 100), [1, 3, 5]), GPUPOST_MOD9, GPUPOST_POSTINGS);
foreach (['POSTINGS dense' => $dense, 'POSTINGS sparse' => $sparse] as $name => $b) {
    $out[] = sprintf("%s %.0f", $name, $best(function () use ($b) {
        for ($i = 0; $i < 2000; $i++) gpu_decode_postings($b, GPUPOST_MOD9, GPUPOST_POSTINGS);
    }, 2000));
}
echo implode("; ", $out), "\n";
