<?php
/* What the benchmarks over text share (bench/index_bench.php, bench/open_first.php,
 * bench/http_prep.php): an FTS5 table `docs(body)` of a text file, one doc a line (rowid = line
 * number), in one transaction; the demo corpus as such a text and its log of AND queries. */
function fts5_index_text(SQLite3 $db, string $path): void
{
    $db->exec('CREATE VIRTUAL TABLE docs USING fts5(body)');
    $db->exec('BEGIN');
    $st = $db->prepare('INSERT INTO docs(rowid, body) VALUES (:id, :body)');
    $fh = fopen($path, 'r');
    for ($id = 1; ($line = fgets($fh)) !== false; $id++) {
        $st->bindValue(':id', $id, SQLITE3_INTEGER);
        $st->bindValue(':body', rtrim($line, "\n"), SQLITE3_TEXT);
        $st->execute();
    }
    fclose($fh);
    $db->exec('COMMIT');
}

/* The demo corpus (demo/corpus.php, required by the caller) written to $text, one doc a line of
 * its tokens, and 10,000 AND queries of 2-4 terms drawn by frequency: each term a random token
 * outside the 100 most frequent terms (the stop words users leave out), from mt_srand(2026) (a
 * caller drawing more after them continues the same sequence). [lists, doc lengths, each doc's
 * tokens, the queries]. */
function demo_text_and_log(string $text): array
{
    [$files, $lists, , , $lengths] = demo_corpus();
    $fh = fopen($text, 'w');
    $docs_tokens = [];
    foreach ($files as $doc => $path) {
        $docs_tokens[$doc] = demo_tokens((string)file_get_contents($path));
        fwrite($fh, implode(' ', $docs_tokens[$doc]) . "\n");
    }
    fclose($fh);
    mt_srand(2026);
    $df = array_map('count', $lists);
    arsort($df);
    $stop = array_flip(array_slice(array_keys($df), 0, 100));
    $all = array_values(array_filter(array_merge(...array_values($docs_tokens)), fn($w) => !isset($stop[$w])));
    $queries = [];
    for ($i = 0; $i < 10000; $i++) {
        $t = [];
        for ($k = mt_rand(2, 4); $k > 0; $k--) $t[] = $all[mt_rand(0, count($all) - 1)];
        $queries[] = $t;
    }
    return [$lists, $lengths, $docs_tokens, $queries];
}
