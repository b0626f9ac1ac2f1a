<?php
/* One fresh process of bench/open_first.sh: opens an index (gpupost's file, or SQLite FTS5's
 * database) and asks it one AND query, each timed apart; prints "open_ms first_ms matches".
 *   php bench/open_first.php gpupost INDEX.gpix TERM...
 *   php bench/open_first.php fts5 DB TERM...
 *   php bench/open_first.php fts5-build TEXT DB   (one doc a line, rowid = line number) */
[, $what, $path] = $_SERVER['argv'];
$terms = array_slice($_SERVER['argv'], 3);
if ($what === 'fts5-build') {
    require __DIR__ . '/fts5_text.php';
    $db = new SQLite3($terms[0]);
    $db->exec('PRAGMA journal_mode = OFF');
    fts5_index_text($db, $path);
    exit(0);
}
$t0 = hrtime(true);
if ($what === 'gpupost') {
    $ix = GpuPost\Index::open($path, ['device' => 'host']);
    $t1 = hrtime(true);
    $n = count($ix->search($terms, ['op' => GPUPOST_AND]));
} else {
    $db = new SQLite3($path, SQLITE3_OPEN_READONLY);
    $st = $db->prepare('SELECT rowid FROM docs WHERE docs MATCH :q ORDER BY rowid');
    $t1 = hrtime(true);
    $st->bindValue(':q', implode(' AND ', array_map(fn($t) => '"' . $t . '"', $terms)), SQLITE3_TEXT);
    $r = $st->execute();
    for ($n = 0; $r->fetchArray(SQLITE3_NUM); $n++);
}
$t2 = hrtime(true);
printf("%.3f %.3f %d\n", ($t1 - $t0) / 1e6, ($t2 - $t1) / 1e6, $n);
