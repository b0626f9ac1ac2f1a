--TEST--
GpuPost\Index ranked (BM25, 'limit'): on the demo corpus the top 10 of AND and OR queries are SQLite FTS5's bm25() top 10 (the same docs in the same order, scores to 1e-9), on the host and on the device
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
/* in a child with ext/sqlite3 (Debian's php-sqlite3, which scripts/setup.sh installs) */
$code = <<<'CODE'
require $argv[1] . '/demo/corpus.php';
mt_srand(76);
[$files, $index, , , $lengths] = demo_corpus(400);
$opts = ['doc_lengths' => $lengths];
$ix_host = new GpuPost\Index($index, GPUPOST_POSTINGS, $opts + ['device' => 'host']);
$ix_dev = new GpuPost\Index($index, GPUPOST_POSTINGS, $opts + ['device' => gpu_info()['backend'] === 'opencl' ? 'auto' : 'host']);
$db = demo_fts5($files);
/* queries drawn from the documents: 2-4 words of one doc, a repeated word now and then */
$queries = [];
$docs = array_map(fn($p) => demo_tokens((string)file_get_contents($p)), $files);
while (count($queries) < 220) {
    $w = $docs[mt_rand(0, count($docs) - 1)];
    if (count($w) < 4) continue;
    $t = [];
    for ($i = mt_rand(2, 4); $i > 0; $i--) $t[] = $w[mt_rand(0, count($w) - 1)];
    if (mt_rand(0, 9) == 0) $t[] = $t[0];
    $queries[] = $t;
}
$queries[] = ['gpl', 'nosuchwordanywhere'];
$bad = $checked = $full = $worst = 0;
foreach ([GPUPOST_AND => false, GPUPOST_OR => true] as $op => $or) {
    $o = ['op' => $op, 'limit' => 10];
    $host = $ix_host->searchBatch($queries, $o);
    $dev = $ix_dev->searchBatch($queries, $o);
    foreach ($queries as $k => $terms) {
        $want = demo_fts5_top($db, $terms, $or, 10);
        $checked++;
        $full += count($want) == 10;
        foreach ([$host[$k], $dev[$k], $ix_host->search($terms, $o)] as $got) {
            $same = array_keys($got) === array_keys($want);
            foreach ($want as $d => $s) {
                if (!$same) break;
                $rel = abs($got[$d] - $s) / $s;
                $worst = max($worst, $rel);
                $same = $rel <= 1e-9;
            }
            if (!$same && $bad++ < 3) echo json_encode($terms), " op $op fts5 ", json_encode($want), " gpupost ", json_encode($got), "\n";
        }
    }
}
echo $bad ? "FAILED $bad" : "all $checked top 10s equal to FTS5's", ", ", $full > 200 ? "most of them full" : "only $full full", ", scores within 1e-9: ", $worst <= 1e-9 ? "yes" : "no ($worst)", "\n";
echo "device batch on ", $ix_dev->info()['last_backend'], "\n";
CODE;
ini_set('gpupost.min_device_values', '0');
/* (a PHP built with sqlite3 in it, as the ZTS build of scripts/zts.sh, loads nothing) */
[$out, $rc] = gp_child($code, (extension_loaded('sqlite3') ? [] : ['extension' => getenv('GPUPOST_TEST_SQLITE3') ?: 'sqlite3']) + ['memory_limit' => '1G'], gp_device_available() ? 'device' : 'host', [dirname(__DIR__)]);
$want = 'device batch on ' . (gp_device_available() ? 'opencl' : 'host');
echo str_replace($want, 'device batch where it should run', $out), "\n";
?>
--EXPECT--
all 442 top 10s equal to FTS5's, most of them full, scores within 1e-9: yes
device batch where it should run
