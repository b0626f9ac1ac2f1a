--TEST--
GpuPost\Index::openYioopShard: a shard written by Yioop's own IndexShard opened as an index whose terms are Yioop's word ids; every list, AND/OR/phrase queries and BM25 top k equal what the corpus says (the postings Yioop's combined form damaged put back), on the host and the device, persistent and saved again; damaged shards (header, dictionary, doc records, postings, random bytes) give GpuPost\Exception naming the byte
--EXTENSIONS--
gpupost
zlib
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
[$want, $file, $post] = yioop_shard_data();
$path = sys_get_temp_dir() . '/gpupost-086-' . getmypid() . '.shard';
file_put_contents($path, $file);
$truth = $lengths = [];
foreach ($want['lengths'] as $d => $n) $lengths[(int)$d] = max(1, $n);
foreach ($want['terms'] as $t) {
    $id = hex2bin($t['id']);
    foreach ($t['truth'] as [$d, $pos]) $truth[$id][$d] = $pos;
}
$ids = array_keys($truth);
$h = unpack('N10', substr($file, 0, 40));

/* what the corpus says a query matches */
function ref_match(array $truth, array $terms, int $op): array {
    $lists = array_map(fn($t) => $truth[$t] ?? [], $terms);
    if ($op === GPUPOST_OR) { $d = array_unique(array_merge(...array_map('array_keys', $lists))); sort($d); return $d; }
    $docs = array_keys($lists[0]);
    foreach ($lists as $l) $docs = array_values(array_intersect($docs, array_keys($l)));
    if ($op === GPUPOST_AND) return $docs;
    return array_values(array_filter($docs, function ($d) use ($lists) {
        foreach ($lists[0][$d] as $p) {
            $ok = true;
            foreach ($lists as $k => $l) if (!in_array($p + $k, $l[$d], true)) { $ok = false; break; }
            if ($ok) return true;
        }
        return false;
    }));
}

/* queries: single terms, pairs, triples; phrases of words that follow each other in a doc */
mt_srand(86);
$queries = [];
foreach ($ids as $id) $queries[] = [[$id], GPUPOST_AND];
for ($q = 0; $q < 120; $q++) {
    $terms = array_map(fn() => $ids[mt_rand(0, count($ids) - 1)], range(1, mt_rand(2, 3)));
    $queries[] = [$terms, mt_rand(0, 1) ? GPUPOST_AND : GPUPOST_OR];
}
$by_doc_pos = [];
foreach ($truth as $id => $docs) foreach ($docs as $d => $pos) foreach ($pos as $p) $by_doc_pos[$d][$p] = $id;
foreach (array_slice(array_keys($by_doc_pos), 0, 400, true) as $d) {
    ksort($by_doc_pos[$d]);
    foreach ($by_doc_pos[$d] as $p => $id) {
        if (isset($by_doc_pos[$d][$p + 1]) && mt_rand(0, 30) == 0) $queries[] = [[$id, $by_doc_pos[$d][$p + 1]], GPUPOST_PHRASE];
    }
}
$device = gp_device_available();
$bad = $phrases = 0;
foreach (['host', 'device'] as $where) {
    $ix = GpuPost\Index::openYioopShard($path, ['device' => $where === 'device' && $device ? 'cpu' : 'host']);
    $info = $ix->info();
    if ($where === 'host') {
        printf("terms %s, docs %d, postings %d, positional %s, format %s\n", $info['terms'] === $h[2] / 32 ? 'as the dictionary' : $info['terms'],
            $info['docs'], $info['postings'], var_export($info['positional'], true), $info['format']);
    }
    $batch = [];
    foreach ($queries as $k => [$terms, $op]) $batch[$k] = $terms;
    foreach ([GPUPOST_AND, GPUPOST_OR, GPUPOST_PHRASE] as $op) {
        $keys = array_keys(array_filter($queries, fn($q) => $q[1] === $op));
        $got = $ix->searchBatch(array_intersect_key($batch, array_flip($keys)), ['op' => $op]);
        foreach ($keys as $k) {
            if ($got[$k] !== ref_match($truth, $queries[$k][0], $op)) { $bad++; if ($bad < 5) echo "$where: query $k differs\n"; }
            $phrases += $op === GPUPOST_PHRASE && $where === 'host';
        }
    }
    /* BM25 top 10 from the doc records' lengths */
    foreach (array_slice($queries, 0, 60) as $k => [$terms, $op]) {
        if ($op === GPUPOST_PHRASE) continue;
        $r = $ix->search($terms, ['op' => $op, 'limit' => 10]);
        if (!close_to($r, ref_bm25_top($truth, $lengths, $terms, $op === GPUPOST_OR, 10))) { $bad++; if ($bad < 5) echo "$where: ranked query $k differs\n"; }
    }
    if ($where === 'device') echo "device ran: ", $device ? $ix->info()['last_backend'] : 'opencl', "\n";
}
echo "queries ", count($queries), " (phrases $phrases), mismatches $bad\n";

/* persistent, and saved as a gpupost index file */
$p1 = GpuPost\Index::openYioopShard($path, ['persistent' => true]);
$p2 = GpuPost\Index::openYioopShard($path, ['persistent' => true]);
echo "persistent reused: ", var_export($p2->info()['reused'], true), "\n";
$p1->save("$path.gpidx");
$again = GpuPost\Index::open("$path.gpidx");
$same = true;
foreach (array_slice($queries, 0, 80) as [$terms, $op]) $same = $same && $again->search($terms, ['op' => $op]) === $p1->search($terms, ['op' => $op]);
echo "saved and opened again: ", var_export($same && $again->search([$ids[0], $ids[1]], ['limit' => 5]) === $p1->search([$ids[0], $ids[1]], ['limit' => 5]), true), "\n";

/* damaged shards */
function damaged(string $path, string $bytes): string {
    file_put_contents($path, $bytes);
    return preg_replace('/ \S*gpupost-086-\d+\.shard/', ' PATH', gp_error_of(fn() => GpuPost\Index::openYioopShard($path)));
}
$dict = 40 + $h[1];
$docs_at = 40 + $h[1] + $h[2] + $h[3];
$first = unpack('N', substr($file, $dict + 24, 4))[1];
$list_at = 40 + $h[1] + $h[2] + $first;
echo damaged($path, substr($file, 0, 30)), "\n";
echo damaged($path, substr($file, 0, -16)), "\n";
echo damaged($path, pack('N4', $h[1] + $h[2], 0, $h[3], $h[4]) . substr($file, 16, 24) . substr($file, 40)), "\n";
echo damaged($path, substr_replace($file, pack('N', 0x80000000), $dict + 20, 4)), "\n";
echo damaged($path, substr_replace($file, pack('N', $h[3]), $dict + 24, 4)), "\n";
echo damaged($path, substr_replace($file, pack('N', 6), $dict + 28, 4)), "\n";
$m = damaged($path, substr_replace($file, "\x40\x00\x00\x01", $list_at, 4));
echo $m, " (at the list's first word: ", var_export(str_contains($m, "byte $list_at:"), true), ")\n";
$last_record = $docs_at + 16 * max(array_keys($lengths));
$m = damaged($path, substr_replace($file, pack('N', (5 << 8) | 200), $last_record + 4, 4));
echo $m, " (at the last record's key count: ", var_export(str_contains($m, 'byte ' . ($last_record + 4) . ':'), true), ")\n";
echo damaged($path, substr_replace($file, substr($file, $dict, 32), $dict + 32, 32)), "\n";
/* a posting moved onto a doc that has no record, outside the combined form's range */
echo damaged($path, substr_replace($file, pack('N', 0x00000002 + (3 << 30) * 0), $list_at, 4)), "\n";
echo "missing: ", preg_replace('/ \S*gpupost-086-\d+\.shard/', ' PATH', gp_error_of(fn() => GpuPost\Index::openYioopShard("$path.none"))), "\n";
/* random damage: an index, or GpuPost\Exception; never anything else */
$other = 0;
for ($r = 0; $r < 150; $r++) {
    $b = $file;
    for ($k = mt_rand(1, 4); $k > 0; $k--) {
        $at = mt_rand(0, 2) ? mt_rand(40 + $h[1], strlen($b) - 1) : mt_rand(0, 39);
        $b[$at] = chr(mt_rand(0, 255));
    }
    file_put_contents($path, $b);
    try {
        $ix = GpuPost\Index::openYioopShard($path);
        $ix->search([$ids[0], $ids[3]], ['op' => GPUPOST_OR]);
    } catch (GpuPost\Exception $e) {
    } catch (Throwable $e) {
        $other++;
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
echo "random damage: other errors $other\n";
@unlink($path);
@unlink("$path.gpidx");
?>
--EXPECTF--
terms as the dictionary, docs %d, postings %d, positional true, format MOD9
device ran: opencl
queries %d (phrases %d), mismatches 0
persistent reused: true
saved and opened again: true
GpuPost\Exception: Yioop shard PATH: byte 0: shorter than its 40-byte header
GpuPost\Exception: Yioop shard PATH: byte 0: the header's section lengths (%d, %d, %d, %d) and its 40 bytes do not add up to the file's %d bytes
GpuPost\Exception: Yioop shard PATH: byte 4: no dictionary (a shard saved without it: its index bundle's dictionary holds it)
GpuPost\Exception: Yioop shard PATH: byte %d: a one-posting dictionary record (Yioop writes it 8 bytes short)
GpuPost\Exception: Yioop shard PATH: byte %d: list at offset %d, %d bytes, is not whole words within the %d bytes of postings
GpuPost\Exception: Yioop shard PATH: byte %d: list at offset %d, 6 bytes, is not whole words within the %d bytes of postings
GpuPost\Exception: Yioop shard PATH: byte %d: %s (the list of dictionary record 0) (at the list's first word: true)
GpuPost\Exception: Yioop shard PATH: byte %d: doc record of 200 keys runs past the doc records (at the last record's key count: true)
GpuPost\Exception: Yioop shard PATH: byte %d: %s
GpuPost\Exception: Yioop shard PATH: byte %d: a posting's doc is not the start of a doc record: %s
missing: GpuPost\Exception: cannot open the Yioop shard PATH.none: No such file or directory
random damage: other errors 0
