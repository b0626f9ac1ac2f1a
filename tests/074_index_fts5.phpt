--TEST--
GpuPost\Index on the demo corpus answers AND and phrase queries with SQLite FTS5's matches (the same tokens), on the host and on the device (lists resident decoded and compressed)
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
/* in a child with ext/sqlite3 (Debian's php-sqlite3, which scripts/setup.sh installs) */
$code = <<<'CODE'
require $argv[1] . '/demo/corpus.php';
mt_srand(74);
[$files, $index] = demo_corpus(400);
$ix_host = new GpuPost\Index($index, GPUPOST_POSTINGS, ['device' => 'host']);
$ix_dev = new GpuPost\Index($index, GPUPOST_POSTINGS, ['device' => gpu_info()['backend'] === 'opencl' ? 'auto' : 'host']);
$ix_packed = new GpuPost\Index($index, GPUPOST_POSTINGS, ['device' => gpu_info()['backend'] === 'opencl' ? 'auto' : 'host', 'device_lists' => 'compressed']);
$db = demo_fts5($files);
/* queries drawn from the documents: words of one doc (AND), runs of consecutive words (phrase) */
$and = $phrase = [];
$docs = array_map(fn($p) => demo_tokens((string)file_get_contents($p)), $files);
while (count($and) < 200 || count($phrase) < 150) {
    $w = $docs[mt_rand(0, count($docs) - 1)];
    if (count($w) < 4) continue;
    if (count($and) < 200) {
        $t = [];
        for ($i = mt_rand(2, 4); $i > 0; $i--) $t[] = $w[mt_rand(0, count($w) - 1)];
        $and[] = $t;
    }
    $at = mt_rand(0, count($w) - 3);
    $phrase[] = array_slice($w, $at, mt_rand(2, 3));
}
$and[] = ['gpl', 'nosuchwordanywhere'];
$bad = $checked = $matched = 0;
foreach ([[$and, GPUPOST_AND, false], [$phrase, GPUPOST_PHRASE, true]] as [$queries, $op, $is_phrase]) {
    $host = $ix_host->searchBatch($queries, ['op' => $op]);
    $dev = $ix_dev->searchBatch($queries, ['op' => $op]);
    $packed = $ix_packed->searchBatch($queries, ['op' => $op]);
    foreach ($queries as $k => $terms) {
        $want = demo_fts5_docs($db, $terms, $is_phrase);
        $checked++;
        $matched += count($want) > 0;
        if ($host[$k] !== $want || $dev[$k] !== $want || $packed[$k] !== $want || $ix_host->search($terms, ['op' => $op]) !== $want) {
            if ($bad++ < 3) echo json_encode($terms), " fts5 ", json_encode($want), " gpupost ", json_encode($host[$k]), "\n";
        }
    }
}
echo $bad ? "FAILED $bad" : "all $checked equal to FTS5", ", ", $matched > 300 ? "most match something" : "only $matched match", "\n";
echo "device batch on ", $ix_dev->info()['last_backend'], "\n";
echo "device batch on ", $ix_packed->info()['last_backend'], "\n";
CODE;
ini_set('gpupost.min_device_values', '0');
/* GPUPOST_TEST_SQLITE3: where ext/sqlite3 is when PHP is not installed as Debian installs it */
/* (a PHP built with sqlite3 in it, as the ZTS build of scripts/zts.sh, loads nothing) */
[$out, $rc] = gp_child($code, (extension_loaded('sqlite3') ? [] : ['extension' => getenv('GPUPOST_TEST_SQLITE3') ?: 'sqlite3']) + ['memory_limit' => '1G'], gp_device_available() ? 'device' : 'host', [dirname(__DIR__)]);
$want = 'device batch on ' . (gp_device_available() ? 'opencl' : 'host');
echo str_replace($want, 'device batch where it should run', $out), "\n";
?>
--EXPECT--
all 401 equal to FTS5, most match something
device batch where it should run
device batch where it should run
