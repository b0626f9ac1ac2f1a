--TEST--
Query trees (FTS5 MATCH expressions and array trees): random trees over FTS5's grammar on the demo corpus match FTS5's MATCH (the same docs, on the host and the device), their bm25() top 10 equal FTS5's (the same docs in the same order, scores to 1e-9), and expressions with operators in any order parse (or fail) as FTS5's do
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
/* in a child with ext/sqlite3 (Debian's php-sqlite3, which scripts/setup.sh installs) */
$code = <<<'CODE'
require $argv[1] . '/demo/corpus.php';
/* the sanitizer and valgrind runs (Zend's allocator off: USE_ZEND_ALLOC=0, and valgrind follows
 * this child) ask fewer: the same checks, on a part of the inputs */
$light = ($argv[2] ?? '') === 'light';
mt_srand(96);
[$files, $index, , , $lengths] = demo_corpus(300);
$ix = new GpuPost\Index($index, GPUPOST_POSTINGS, ['doc_lengths' => $lengths, 'device' => 'host']);
$file = sys_get_temp_dir() . '/gpupost-096-' . getmypid() . '.idx';
$ix->save($file);
$mapped = GpuPost\Index::open($file, ['device' => 'host']);   /* version 2, its lists read in place */
/* every batch sent to the process's device (the host where there is none): unranked trees run
 * there (kernels/tree.cl), ranked ones on the host */
$dev = new GpuPost\Index($index, GPUPOST_POSTINGS, ['doc_lengths' => $lengths, 'device' => 'gpu']);
unlink($file);
$db = demo_fts5($files);
$docs = array_values(array_filter(array_map(fn($p) => demo_tokens((string)file_get_contents($p)), $files), fn($w) => count($w) > 8));

$columns = [];
$table = 'docs';
require $argv[1] . '/tests/fts5_trees.inc';
[$n, $bad, $nonempty, $quirks, $worst, $ops, $sample] = check_trees(['string' => [$ix, 'string'], 'mapped' => [$mapped, 'string'], 'array' => [$ix, 'array'], 'device' => [$dev, 'string']], $light ? 50 : 700, null, $light);
$batch_q = array_map(fn($x) => $x[0], $sample);
$batch_a = array_map(fn($x) => $x[1], $sample);
$batch_w = array_map(fn($x) => $x[2], $sample);
/* a batch of mixed queries: MATCH strings, array trees, a list of terms under 'op' */
$mixed = $batch_q + ['list' => ['gpl', 'license']];
$got = $ix->searchBatch($mixed, ['limit' => 10]);
$got_a = $mapped->searchBatch($batch_a, ['limit' => 10, 'tree' => true]);
foreach ($batch_q as $k => $q) {
    if (!same_top($got[$k], $batch_w[$k], $worst) || !same_top($got_a[$k], $batch_w[$k], $worst)) {
        if ($bad++ < 8) echo "batch $k: $q\n";
    }
}
if (!same_top($got['list'], fts5('"gpl" AND "license"', 10), $worst)) echo "batch list differs\n";
echo $bad ? "FAILED $bad\n" : "all " . ($n == ($light ? 50 : 700) ? 'the' : "only $n of the") . " trees equal to FTS5's (" . ($nonempty > $n / 3 ? 'many' : $nonempty) . " with matches), as strings, on a mapped file, as arrays and on the device; scores within 1e-9: " . ($worst <= 1e-9 ? "yes" : "no") . ($n - $quirks > $n / 2 ? ", most compared by score" : ", only " . ($n - $quirks) . " compared by score") . "\n";
$dev->search('"gpl" NOT "license" OR NEAR("free" "software", 3)');
$want = gp_device_available() ? 'opencl' : 'host';
echo "unranked trees answered by the device where there is one: ", $dev->info()['last_backend'] === $want ? 'yes' : 'no, ' . $dev->info()['last_backend'], "\n";
sort($ops);
echo "operators: ", implode(' ', array_intersect($ops, ['and', 'or', 'not', 'implicit', 'phrase', 'prefix', 'initial', 'near'])), "\n";

/* operators and pieces in any order, without parentheses: the same precedence, the same errors */
$pieces = ['a', 'b', 'license', 'gpl', 'software', '"free software"', 'lic*', '^the', 'OR', 'AND', 'NOT', 'OR', 'AND', 'NOT',
           '(', ')', 'NEAR(gpl license)', 'NEAR(free software, 2)', '+', '*', '^', ',', ':', '-', '{', '}', '"', 'NEAR', 'x:'];
$agree = $errors = $parsed = 0;
$soup = $light ? 300 : 3000;
for ($i = 0; $i < $soup; $i++) {
    $q = implode(' ', array_map(fn() => $pieces[mt_rand(0, count($pieces) - 1)], range(1, mt_rand(1, 7))));
    $want = fts5($q, 0);
    try {
        $got = $ix->search($q);
    } catch (ValueError $e) {
        $got = null;
    }
    if ($want === null) $errors++; else $parsed++;
    if (($want === null) !== ($got === null) || ($want !== null && $got !== array_keys($want))) {
        if ($bad++ < 12) echo "soup: $q: fts5 ", $want === null ? 'error' : json_encode(array_keys($want)), ' gpupost ', $got === null ? 'error ' . $e->getMessage() : json_encode($got), "\n";
    } else {
        $agree++;
    }
}
echo "expressions in any order: ", $agree == $soup ? 'all' : "$agree of $soup", " agree with FTS5 (", $parsed > $soup / 20 && $errors > $soup / 20 ? 'many parsed, many refused' : "parsed $parsed, refused $errors", ")\n";
CODE;
[$out, $rc] = gp_child($code, (extension_loaded('sqlite3') ? [] : ['extension' => getenv('GPUPOST_TEST_SQLITE3') ?: 'sqlite3']) + ['memory_limit' => '1G'], 'host', [dirname(__DIR__), getenv('USE_ZEND_ALLOC') === '0' ? 'light' : 'full']);
echo $out, "\n";
?>
--EXPECT--
all the trees equal to FTS5's (many with matches), as strings, on a mapped file, as arrays and on the device; scores within 1e-9: yes, most compared by score
unranked trees answered by the device where there is one: yes
operators: and implicit initial near not or phrase prefix
expressions in any order: all agree with FTS5 (many parsed, many refused)
