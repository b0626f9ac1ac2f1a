<?php
/* bench/http.sh's data: the same documents and queries for every engine of the HTTP benchmark.
 * Writes into DIR: the gpupost index (demo: built here; a gen_corpus corpus: the file given is
 * used in place), the text (one doc a line, its tokens joined by spaces: line d + 1 is gpupost's
 * doc d), the FTS5 database (fts5.db, rowid = doc + 1), the Sphinx source (sphinx.tsv, id = doc +
 * 1), the first N AND queries of the log as fixed-width records (queries.dat: request id i reads
 * record i, one seek, no parse of the whole log per request). Prints "docs terms postings queries
 * record_width index_file" on stdout.
 *
 *   php bench/http_prep.php DIR N demo                          the demo corpus, built as
 *                                                               bench/index_bench.php builds it
 *   php bench/http_prep.php DIR N INDEX.gpix QUERIES TEXT      a gen_corpus corpus
 */
require __DIR__ . '/../demo/corpus.php';
require __DIR__ . '/fts5_text.php';

$argv = $_SERVER['argv'];
if (count($argv) !== 4 && count($argv) !== 6) {
    fwrite(STDERR, "usage: php bench/http_prep.php DIR N demo | DIR N INDEX.gpix QUERIES TEXT\n");
    exit(2);
}
[, $dir, $n] = $argv;
$n = (int)$n;
$text = "$dir/text.txt";
if ($argv[3] === 'demo') {
    /* exactly bench/index_bench.php's demo: its text, its AND log (same seed, same draws), its
     * index (doc lengths for BM25) */
    [$lists, $lengths, , $queries] = demo_text_and_log($text);
    $ixfile = "$dir/demo.gpix";
    (new GpuPost\Index($lists, GPUPOST_POSTINGS, ['doc_lengths' => $lengths]))->save($ixfile);
    unset($lists);
} else {
    [, , , $ixfile, $qfile, $given] = $argv;
    $ixfile = realpath($ixfile);   /* gpupostd's allow_dir is its directory, links resolved */
    $queries = [];
    foreach (file($qfile, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
        $w = explode(' ', $line);
        if (array_shift($w) === 'and') $queries[] = $w;
    }
    symlink(realpath($given), $text);
}
if ($n > count($queries)) {
    fwrite(STDERR, "http_prep: the log has " . count($queries) . " AND queries, $n asked\n");
    exit(1);
}
$queries = array_slice($queries, 0, $n);
$width = max(array_map(fn($t) => strlen(implode(' ', $t)), $queries)) + 1;
$fh = fopen("$dir/queries.dat", 'w');
foreach ($queries as $t) fwrite($fh, str_pad(implode(' ', $t), $width - 1) . "\n");
fclose($fh);

/* FTS5: one file every request opens (read-only); the text as bench/index_bench.php feeds it */
$db = new SQLite3("$dir/fts5.db");
$db->exec('PRAGMA journal_mode = OFF');
fts5_index_text($db, $text);
$db->exec("INSERT INTO docs(docs) VALUES ('optimize')");   /* one segment, as a site would serve it */
$db->close();

/* Sphinx (tsvpipe): id = line number = doc + 1; the text has no tabs (tokens and spaces) */
$in = fopen($text, 'r');
$out = fopen("$dir/sphinx.tsv", 'w');
for ($id = 1; ($line = fgets($in)) !== false; $id++) fwrite($out, $id . "\t" . rtrim($line, "\n") . "\n");
fclose($in);
fclose($out);

$ix = GpuPost\Index::open($ixfile, ['device' => 'host']);
$info = $ix->info();
if ($id - 1 !== $info['docs']) {
    fwrite(STDERR, "http_prep: the text has " . ($id - 1) . " docs, the index {$info['docs']}: not the same corpus\n");
    exit(1);
}
/* what bench/http.sh writes into the endpoint's conf.php */
printf("%d %d %d %d %d %s\n", $info['docs'], $info['terms'], $info['postings'], $n, $width, $ixfile);
