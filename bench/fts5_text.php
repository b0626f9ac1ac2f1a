<?php
/* What bench/index_bench.php and bench/open_first.php share: an FTS5 table `docs(body)` of a text
 * file, one doc a line (rowid = line number), in one transaction. */
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
