--TEST--
The porter tokenizer (FTS5's "porter unicode61"): gpu_tokenize($text, 'porter') gives FTS5's tokens on every word of the demo corpus and on random text; an index of documents with 'tokenizer' => 'porter' (built, and saved and opened in place) answers random MATCH trees as an FTS5 table with that tokenizer does (docs, every score, top 10)
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$code = <<<'CODE'
require $argv[1] . '/demo/corpus.php';
/* the sanitizer and valgrind runs (Zend's allocator off: USE_ZEND_ALLOC=0, and valgrind follows
 * this child) ask fewer: the same checks, on a part of the inputs */
$light = ($argv[2] ?? '') === 'light';
mt_srand(101);
[$files, $lists] = demo_corpus(250);
$db = new SQLite3(':memory:');
$db->enableExceptions(true);
/* tokens: every distinct word, words with suffixes, random texts with capitals and accents */
$db->exec("CREATE VIRTUAL TABLE w USING fts5(x, tokenize='porter unicode61')");
$db->exec("CREATE VIRTUAL TABLE wv USING fts5vocab(w, 'instance')");
$texts = array_slice(array_keys($lists), 0, $light ? 1500 : null);
$pieces = ['Caresses', 'ponies', 'ties', 'sses', 'ies', 'agreed', 'HOPPING', 'filing', 'relational', 'conformabli', 'généralization', 'oscillators',
           'Électricité', 'naïvety', 'yyy', 'ab', ' ', ', ', '-', 'möglichkeiten', str_repeat('x', 70) . 'ing', 'électricalities', 'ÿes'];
for ($i = 0; $i < ($light ? 200 : 2000); $i++) {
    $t = '';
    for ($n = mt_rand(1, 8); $n > 0; $n--) $t .= $pieces[mt_rand(0, count($pieces) - 1)] . (mt_rand(0, 1) ? ' ' : '');
    $texts[] = $t;
}
$st = $db->prepare('INSERT INTO w(rowid, x) VALUES (:r, :x)');
$db->exec('BEGIN');
foreach ($texts as $i => $t) {
    $st->bindValue(':r', $i + 1);
    $st->bindValue(':x', $t);
    $st->execute();
}
$db->exec('COMMIT');
$want = array_fill(0, count($texts), []);
$r = $db->query('SELECT doc, term FROM wv ORDER BY doc, offset');
while ($row = $r->fetchArray(SQLITE3_NUM)) $want[$row[0] - 1][] = $row[1];
$bad = 0;
foreach ($texts as $i => $t) {
    if (gpu_tokenize($t, 'porter') !== $want[$i] && $bad++ < 5) echo "$t: fts5 ", json_encode($want[$i]), " gpupost ", json_encode(gpu_tokenize($t, 'porter')), "\n";
}
echo $bad ? "tokens: FAILED $bad\n" : "tokens: all " . (count($texts) > ($light ? 1000 : 5000) ? 'many' : count($texts)) . " texts as FTS5's porter\n";

/* an index of documents, porter-stemmed, against the same FTS5 table */
$docs = array_values(array_filter(array_map(fn($p) => demo_tokens((string)file_get_contents($p)), $files), fn($w) => count($w) > 8));
$rows = [];
foreach ($docs as $d => $w) $rows[$d] = ['title' => implode(' ', array_slice($w, 0, 6)), 'body' => implode(' ', array_slice($w, 6))];
$ix = GpuPost\Index::fromDocuments($rows, ['tokenizer' => 'porter', 'device' => 'host']);
$file = sys_get_temp_dir() . '/gpupost-101-' . getmypid() . '.idx';
$ix->save($file);
$mapped = GpuPost\Index::open($file);
unlink($file);
$db->exec("CREATE VIRTUAL TABLE t USING fts5(title, body, tokenize='porter unicode61')");
$db->exec('BEGIN');
$st = $db->prepare('INSERT INTO t(rowid, title, body) VALUES (:r, :t, :b)');
foreach ($rows as $d => $r) {
    $st->bindValue(':r', $d + 1);
    $st->bindValue(':t', $r['title']);
    $st->bindValue(':b', $r['body']);
    $st->execute();
}
$db->exec('COMMIT');
$columns = ['title', 'body'];
$table = 't';
require $argv[1] . '/tests/fts5_trees.inc';
[$n, $bad, $nonempty, $quirks, $worst] = check_trees(['string' => [$ix, 'string'], 'mapped' => [$mapped, 'string']], $light ? 30 : 250, null, $light);
echo $bad ? "trees: FAILED $bad\n" : "trees: all " . ($n == ($light ? 30 : 250) ? 'the' : "only $n of the") . " trees equal to FTS5's porter table (" . ($nonempty > $n / 3 ? 'many' : $nonempty) . " with matches), scores within 1e-9: " . ($worst <= 1e-9 ? 'yes' : 'no') . "\n";
CODE;
[$out, $rc] = gp_child($code, (extension_loaded('sqlite3') ? [] : ['extension' => getenv('GPUPOST_TEST_SQLITE3') ?: 'sqlite3']) + ['memory_limit' => '1G'], 'host', [dirname(__DIR__), getenv('USE_ZEND_ALLOC') === '0' ? 'light' : 'full']);
echo $out, "\n";
?>
--EXPECT--
tokens: all many texts as FTS5's porter
trees: all the trees equal to FTS5's porter table (many with matches), scores within 1e-9: yes
