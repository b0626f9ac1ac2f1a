<?php
/* The demo corpus, shared by demo/search.php, tests/074 and bench/index_bench.php: the license
 * texts every Debian machine has (/usr/share/common-licenses and each package's copyright file),
 * tokenized as lowercase runs of [a-z0-9] numbered from 1 (as Yioop numbers positions). */

/** @return array{0: list<string>, 1: array<string, array<int, list<int>>>, 2: int, 3: int, 4: array<int, int>} files, [term => [doc => positions]], bytes, tokens, [doc => tokens] */
function demo_corpus(int $limit = 0): array
{
    $files = array_merge(glob('/usr/share/common-licenses/*') ?: [], glob('/usr/share/doc/*/copyright') ?: []);
    $files = array_values(array_filter($files, 'is_file'));
    if ($limit > 0) {
        $files = array_slice($files, 0, $limit);
    }
    $index = $lengths = [];
    $bytes = $tokens = 0;
    foreach ($files as $doc => $path) {
        $words = demo_tokens((string)file_get_contents($path));
        $bytes += filesize($path);
        foreach ($words as $i => $w) {
            $index[$w][$doc][] = $i + 1;
        }
        $tokens += count($words);
        $lengths[$doc] = count($words);   /* BM25's doc length, as FTS5 counts the row's tokens */
    }
    return [$files, $index, $bytes, $tokens, $lengths];
}

/** @return list<string> */
function demo_tokens(string $text): array
{
    return preg_split('/[^a-z0-9]+/', strtolower($text), -1, PREG_SPLIT_NO_EMPTY);
}

/* The same documents in an SQLite FTS5 table (rowid = doc + 1), each stored as its tokens joined
 * by spaces, so that FTS5's tokenizer sees exactly gpupost's tokens. Needs ext/sqlite3. */
function demo_fts5(array $files): SQLite3
{
    $db = new SQLite3(':memory:');
    $db->exec('CREATE VIRTUAL TABLE docs USING fts5(body)');
    $db->exec('BEGIN');
    $st = $db->prepare('INSERT INTO docs(rowid, body) VALUES (:id, :body)');
    foreach ($files as $doc => $path) {
        $st->bindValue(':id', $doc + 1, SQLITE3_INTEGER);
        $st->bindValue(':body', implode(' ', demo_tokens((string)file_get_contents($path))), SQLITE3_TEXT);
        $st->execute();
    }
    $db->exec('COMMIT');
    return $db;
}

/* An FTS5 MATCH expression: AND (or OR) of the terms, or the terms as one phrase (each quoted,
 * so that words like "and" or "near" are terms). */
function demo_fts5_match(array $terms, bool $phrase, bool $or = false): string
{
    $q = array_map(fn($t) => '"' . $t . '"', $terms);
    return $phrase ? '"' . implode(' ', $terms) . '"' : implode($or ? ' OR ' : ' AND ', $q);
}

/** @return array<int, float> FTS5's $k best docs by bm25() for the AND (or OR) of the terms, [doc => score] best first (ties: the smaller doc), scores positive as gpupost gives them */
function demo_fts5_top(SQLite3 $db, array $terms, bool $or, int $k): array
{
    $st = $db->prepare('SELECT rowid - 1, bm25(docs) FROM docs WHERE docs MATCH :q ORDER BY bm25(docs), rowid LIMIT :k');
    $st->bindValue(':q', demo_fts5_match($terms, false, $or), SQLITE3_TEXT);
    $st->bindValue(':k', $k, SQLITE3_INTEGER);
    $r = $st->execute();
    $out = [];
    while ($row = $r->fetchArray(SQLITE3_NUM)) {
        $out[$row[0]] = -$row[1];
    }
    return $out;
}

/** @return list<int> the matching docs, increasing */
function demo_fts5_docs(SQLite3 $db, array $terms, bool $phrase): array
{
    $st = $db->prepare('SELECT rowid - 1 FROM docs WHERE docs MATCH :q ORDER BY rowid');
    $st->bindValue(':q', demo_fts5_match($terms, $phrase), SQLITE3_TEXT);
    $r = $st->execute();
    $out = [];
    while ($row = $r->fetchArray(SQLITE3_NUM)) {
        $out[] = $row[0];
    }
    return $out;
}
