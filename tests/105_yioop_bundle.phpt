--TEST--
GpuPost\Index::openYioopBundle: an IndexArchiveBundle written by Yioop's own code (five generations, the last not yet in the bundle's dictionary) opened as one index: every word's docs equal what Yioop's IndexShard reads in each generation, docs numbered across generations with their generation, doc index and summary offset as attributes; AND/OR/phrase and BM25 top k equal the reference from Yioop's postings on the host and the device; filters by generation; persistent until a file changes; the active generation without its file yet; damaged bundles give GpuPost\Exception naming the file and byte
--EXTENSIONS--
gpupost
zlib
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$tmp = sys_get_temp_dir() . '/gpupost-105-' . getmypid();
gp_remove_tree($tmp);
[$want, $dir] = yioop_bundle_data($tmp);

/* the truth, from Yioop's own reading: each generation's docs from base[g] = the doc indices of
 * the generations before it; each word's docs and positions */
$base = [0];
foreach ($want['units'] as $g => $units) $base[$g + 1] = $base[$g] + $units;
$doc_of = $lengths = $records = [];
foreach ($want['docs'] as $g => $docs) {
    foreach ($docs as [$index, $summary, $tokens]) {
        $d = $base[$g] + $index;
        $doc_of[$g][$summary] = $d;
        $lengths[$d] = max(1, $tokens);
        $records[$d] = ['generation' => (float)$g, 'doc_index' => (float)$index, 'summary_offset' => (float)$summary];
    }
}
$truth = [];
foreach ($want['words'] as $w) {
    $id = hex2bin($w['id']);
    $truth[$id] = [];
    foreach ($w['postings'] as [$g, $summary, $positions]) $truth[$id][$doc_of[$g][$summary]] = $positions;
}
$ids = array_keys($truth);
echo "generations {$want['generations']}, the dictionary's last ", $want['last_dictionary'], ", words ", count($ids), "\n";

/* what the truth says a query matches */
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
mt_srand(105);
$queries = [];
foreach ($ids as $id) $queries[] = [[$id], GPUPOST_AND];
for ($q = 0; $q < 200; $q++) {
    $terms = array_map(fn() => $ids[mt_rand(0, count($ids) - 1)], range(1, mt_rand(2, 3)));
    $queries[] = [$terms, mt_rand(0, 1) ? GPUPOST_AND : GPUPOST_OR];
}
$at = [];
foreach ($truth as $id => $docs) foreach ($docs as $d => $pos) foreach ($pos as $p) $at[$d][$p] = $id;
foreach ($at as $d => $row) {
    foreach ($row as $p => $id) {
        if (isset($row[$p + 1]) && mt_rand(0, 3) == 0) $queries[] = [[$id, $row[$p + 1]], GPUPOST_PHRASE];
    }
}

$device = gp_device_available();
$bad = $phrases = $matched = 0;
foreach (['host', 'device'] as $where) {
    $ix = GpuPost\Index::openYioopBundle($dir, ['device' => $where === 'device' && $device ? 'cpu' : 'host']);
    if ($where === 'host') {
        $info = $ix->info();
        printf("docs %d (%s), terms %d, format %s, positional %s\n", $info['docs'], $info['docs'] === count($records) ? 'every record' : 'not every record',
            $info['terms'], $info['format'], var_export($info['positional'], true));
        /* every record's attributes, and none between records */
        $all = $ix->attributes(range(0, $base[count($want['units'])] - 1));
        $ok = true;
        foreach ($all as $d => $a) $ok = $ok && $a === ($records[$d] ?? []);
        echo "attributes of every doc index: ", var_export($ok && count($all) === $base[count($want['units'])], true), "\n";
        /* every doc's fields as Yioop's own items carry them (getPostingsSlice): its key, DOC_RANK
         * (the same float as Yioop's number_format string), DOC_LEN and IS_DOC */
        $items = $ix->yioopDocs(array_keys($records));
        $same = 0;
        foreach ($items as $d => $it) {
            $y = $want['items'][(int)$records[$d]['generation'] . ':' . (int)$records[$d]['summary_offset']] ?? null;
            $same += $y !== null && $it['key'] === hex2bin($y[0]) && $it['doc_rank'] === (float)$y[1] && $it['doc_len'] === $y[2]
                && $it['is_doc'] === $y[3] && $it['generation'] === (int)$records[$d]['generation']
                && $it['doc_index'] === (int)$records[$d]['doc_index'] && $it['summary_offset'] === (int)$records[$d]['summary_offset'];
        }
        echo "Yioop's item fields: $same of ", count($want['items']), " docs equal\n";
        echo gp_error_of(fn() => $ix->yioopDocs([1])), "\n";
        /* each generation's place and its shard header's counts, as Yioop's IndexShard reads them */
        $gens = [];
        foreach ($want['units'] as $g => $units) {
            $gens[$g] = ['first_doc' => $base[$g], 'doc_indices' => $units] + array_combine(['generation',
                'docs_per_generation', 'num_docs', 'num_link_docs', 'len_all_docs', 'len_all_link_docs'], $want['headers'][$g]);
        }
        echo "generations as Yioop's shard headers say: ", var_export($ix->yioopGenerations() === $gens, true), "\n";
    }
    $batch = [];
    foreach ($queries as $k => [$terms, $op]) $batch[$k] = $terms;
    foreach ([GPUPOST_AND, GPUPOST_OR, GPUPOST_PHRASE] as $op) {
        $keys = array_keys(array_filter($queries, fn($q) => $q[1] === $op));
        $got = $ix->searchBatch(array_intersect_key($batch, array_flip($keys)), ['op' => $op]);
        foreach ($keys as $k) {
            $ref = ref_match($truth, $queries[$k][0], $op);
            if ($got[$k] !== $ref) { $bad++; if ($bad < 5) echo "$where: query $k differs\n"; }
            $phrases += $op === GPUPOST_PHRASE && $where === 'host';
            $matched += $where === 'host' ? count($ref) : 0;
        }
    }
    foreach (array_slice($queries, 0, 120) as $k => [$terms, $op]) {
        if ($op === GPUPOST_PHRASE) continue;
        $r = $ix->search($terms, ['op' => $op, 'limit' => 10]);
        if (!close_to($r, ref_bm25_top($truth, $lengths, $terms, $op === GPUPOST_OR, 10))) { $bad++; if ($bad < 5) echo "$where: ranked query $k differs\n"; }
    }
    /* a generation's docs alone, by the attribute */
    foreach ([[1, 2], [4, 4]] as [$lo, $hi]) {
        foreach (array_slice($ids, 0, 20) as $id) {
            $ref = array_values(array_filter(array_keys($truth[$id]), fn($d) => $records[$d]['generation'] >= $lo && $records[$d]['generation'] <= $hi));
            $got = $ix->search([$id], ['filter' => ['generation' => [$lo, $hi]]]);
            if ($got !== $ref) { $bad++; if ($bad < 5) echo "$where: generations $lo..$hi differ\n"; }
        }
    }
    if ($where === 'device') echo "device ran: ", $device ? $ix->info()['last_backend'] : 'opencl', "\n";
}
echo "queries ", count($queries), " (phrases $phrases, matches $matched), mismatches $bad\n";

/* persistent: one copy while the files are unchanged */
$p1 = GpuPost\Index::openYioopBundle($dir, ['persistent' => true]);
$p2 = GpuPost\Index::openYioopBundle($dir, ['persistent' => true]);
echo "persistent reused: ", var_export($p2->info()['reused'], true), "\n";
touch("$dir/posting_doc_shards/index2", time() + 5);
$p3 = GpuPost\Index::openYioopBundle($dir, ['persistent' => true]);
echo "after a shard changed: ", var_export($p3->info()['reused'], true), "\n";
/* a shard written again with its size and time put back (as cp -p or rsync -a leave it) */
$f = "$dir/posting_doc_shards/index1";
$t = filemtime($f);
file_put_contents($f, file_get_contents($f));
touch($f, $t);
clearstatcache();
$p4 = GpuPost\Index::openYioopBundle($dir, ['persistent' => true]);
echo "after a shard replaced with its size and time: ", var_export($p4->info()['reused'], true), "\n";
unset($p1, $p2, $p3, $p4);

/* the active generation before Yioop first saves its shard: the generations before it */
$last = $want['generations'] - 1;
rename("$dir/posting_doc_shards/index$last", "$tmp/active");
$ix = GpuPost\Index::openYioopBundle($dir);
$ok = true;
foreach ($ids as $id) {
    $ref = array_values(array_filter(array_keys($truth[$id]), fn($d) => $records[$d]['generation'] < $last));
    $ok = $ok && $ix->search([$id]) === $ref;
}
echo "without the active generation's file: ", var_export($ok, true), "\n";
rename("$tmp/active", "$dir/posting_doc_shards/index$last");

/* the same bundle with generations 0..3 saved without their dictionaries (Yioop's
 * RESAVE_SHARDS_WITHOUT_DICTIONARY): read through the bundle's IndexDictionary, the same index */
$whole = GpuPost\Index::openYioopBundle($dir);
$bare = "$tmp/bare";
gp_untar(gzdecode(file_get_contents(__DIR__ . '/data/yioop/bundle-2021.tar.gz')), $bare);
gp_untar(gzdecode(file_get_contents(__DIR__ . '/data/yioop/bundle-2021-nodict.tar.gz')), $bare);
$without = 0;
foreach (glob("$bare/posting_doc_shards/index*") as $f) $without += unpack('N2', file_get_contents($f, false, null, 0, 8))[2] === 0;
$ix = GpuPost\Index::openYioopBundle($bare);
/* the generations the bundle's dictionary files give each word (a reference reading of their
 * rows: a word's row, then its aux rows of three generations each), against Yioop's own lookup */
$dict_gens = [];
foreach (glob("$bare/dictionary/*/*A.dic") as $f) {
    $b = file_get_contents($f);
    for ($r = 0, $rows = (strlen($b) - 2048) / 32; $r < $rows;) {
        $row = substr($b, 2048 + 32 * $r, 32);
        [, $aux, $g] = unpack('n2', substr($row, 20, 4));
        $dict_gens[substr($row, 0, 20)][] = $g;
        for ($k = 1; $k <= $aux; $k++) {
            foreach (str_split(substr($b, 2048 + 32 * ($r + $k) + 2, 30), 10) as $e) {
                if ($e !== str_repeat("\xff", 10)) $dict_gens[substr($row, 0, 20)][] = unpack('n', $e)[1];
            }
        }
        $r += 1 + $aux;
    }
}
$yioop_short = 0;
foreach ($want['words'] as $w) {
    $mine = $dict_gens[hex2bin($w['id'])] ?? [];
    if (array_diff($w['dictionary_generations'], $mine)) echo "Yioop's lookup found a generation the files lack: {$w['word']}\n";
    $yioop_short += count(array_diff($mine, $w['dictionary_generations'])) > 0;
}
/* what the bundle's dictionary leaves out (Yioop's tier merge dropped generation 3 of many
 * words), and the active generation's lists from its own dictionary */
$truth_bare = [];
$lost = 0;
foreach ($want['words'] as $w) {
    $id = hex2bin($w['id']);
    $gens = array_merge($dict_gens[$id] ?? [], [$want['generations'] - 1]);
    $truth_bare[$id] = array_filter($truth[$id], fn($d) => in_array((int)$records[$d]['generation'], $gens, true), ARRAY_FILTER_USE_KEY);
    $lost += count($truth[$id]) - count($truth_bare[$id]);
}
$same = true;
foreach ($queries as [$terms, $op]) $same = $same && $ix->search($terms, ['op' => $op]) === ref_match($truth_bare, $terms, $op);
echo "shards without their dictionaries: $without; every query as the bundle's dictionary says: ", var_export($same, true),
    " (postings it leaves out: ", $lost > 0 ? 'some' : 'none', "; words Yioop's own lookup finds in fewer generations: $yioop_short)\n";
/* a persistent copy is known by the dictionary's files too; a name that is no tier's is left */
$q1 = GpuPost\Index::openYioopBundle($bare, ['persistent' => true]);
$q2 = GpuPost\Index::openYioopBundle($bare, ['persistent' => true]);
$tier = basename(glob("$bare/dictionary/0/*A.dic")[0]);
file_put_contents("$bare/dictionary/9/$tier", file_get_contents("$bare/dictionary/9/$tier"));
clearstatcache();
$q3 = GpuPost\Index::openYioopBundle($bare, ['persistent' => true]);
copy("$bare/dictionary/0/$tier", "$bare/dictionary/0/0$tier");
$q4 = GpuPost\Index::openYioopBundle($bare);
echo "persistent: reused ", var_export($q2->info()['reused'], true), ", after a dictionary file was written again ",
    var_export($q3->info()['reused'], true), "; a name that is no tier's left: ", var_export($q4->info()['postings'] === $ix->info()['postings'], true), "\n";
unlink("$bare/dictionary/0/0$tier");
unset($q1, $q2, $q3, $q4);
$t = file_get_contents("$bare/dictionary/7/$tier");
file_put_contents("$bare/dictionary/7/$tier", substr($t, 0, -5));
echo preg_replace('~ \S*gpupost-105-\d+/bare~', ' BARE', gp_error_of(fn() => GpuPost\Index::openYioopBundle($bare))), "\n";
file_put_contents("$bare/dictionary/7/$tier", substr_replace($t, "\xff\xff", 2048 + 20, 2));
echo preg_replace('~ \S*gpupost-105-\d+/bare~', ' BARE', gp_error_of(fn() => GpuPost\Index::openYioopBundle($bare))), "\n";
file_put_contents("$bare/dictionary/7/$tier", $t);
rename("$bare/dictionary", "$bare/dictionary-gone");
echo preg_replace('~ \S*gpupost-105-\d+/bare~', ' BARE', gp_error_of(fn() => GpuPost\Index::openYioopBundle($bare))), "\n";
unset($whole, $ix);

/* damaged bundles */
/* Yioop's word id of a term (crawlHashWord($term, true)): 8 bytes of its MD5, a zero byte, its
 * first 11 bytes, zero-padded to 20 */
function crawl_hash_word(string $term): string {
    return str_pad(substr(md5($term, true), 0, 8) . "\0" . substr($term, 0, 11), 20, "\0");
}
function bundle_error(string $dir): string {
    return preg_replace('~ \S*gpupost-105-\d+/bundle~', ' DIR', gp_error_of(fn() => GpuPost\Index::openYioopBundle($dir)));
}
$info_txt = file_get_contents("$dir/generation.txt");
echo bundle_error("$dir/none"), "\n";
echo bundle_error("$dir/generation.txt"), "\n";
echo bundle_error("$dir/posting_doc_shards"), "\n";
foreach (['x' . $info_txt, substr($info_txt, 0, -3), 'a:1:{s:6:"ACTIVE";i:-1;}', 'a:1:{s:6:"ACTIVE";i:99999999;}',
          'a:1:{s:7:"CURRENT";i:1;}', 'a:1:{s:6:"ACTIVE";O:8:"stdClass":0:{}}', 'a:2:{s:6:"ACTIVE";i:1;}'] as $text) {
    file_put_contents("$dir/generation.txt", $text);
    echo bundle_error($dir), "\n";
}
file_put_contents("$dir/generation.txt", $info_txt);
rename("$dir/posting_doc_shards/index1", "$tmp/one");
echo bundle_error($dir), "\n";
$shard = file_get_contents("$tmp/one");
rename("$tmp/one", "$dir/posting_doc_shards/index1");
file_put_contents("$dir/posting_doc_shards/index1", substr($shard, 0, -16));
echo bundle_error($dir), "\n";
$h = unpack('N4', substr($shard, 0, 16));
$dict = 40 + $h[1];
file_put_contents("$dir/posting_doc_shards/index1", substr_replace($shard, pack('N', 6), $dict + 28, 4));
echo bundle_error($dir), "\n";
/* a word id twice in one generation's dictionary */
file_put_contents("$dir/posting_doc_shards/index1", substr_replace($shard, substr($shard, $dict, 20), $dict + 32, 20));
echo bundle_error($dir), "\n";
/* a posting of generation 0 naming a doc past its records (generation 1's first, once the
 * docs are numbered across generations): refused as the shard alone would be, never answered */
$shard0 = file_get_contents("$dir/posting_doc_shards/index0");
$h0 = unpack('N4', substr($shard0, 0, 16));
$dict0 = 40 + $h0[1];
$meta = crawl_hash_word('safe:all');
for ($r = 0; $r < $h0[2] / 32 && substr($shard0, $dict0 + 32 * $r, 20) !== $meta; $r++);
[, $off, $ln] = unpack('N2', substr($shard0, $dict0 + 32 * $r + 24, 8)) + [0, 0, 0];
$last_word = 40 + $h0[1] + $h0[2] + $off + ($ln & 0xFFFF) - 4;   /* a meta word's posting is one word: its doc + 1 */
file_put_contents("$dir/posting_doc_shards/index1", $shard);
file_put_contents("$dir/posting_doc_shards/index0", substr_replace($shard0, pack('N', $want['units'][0] + 1), $last_word, 4));
echo bundle_error($dir), "\n";
file_put_contents("$dir/posting_doc_shards/index0", $shard0);
/* random damage to a shard and to generation.txt: an index, or GpuPost\Exception; never anything else */
$other = 0;
for ($r = 0; $r < 120; $r++) {
    $b = $shard;
    for ($k = mt_rand(1, 4); $k > 0; $k--) {
        $p = mt_rand(0, 2) ? mt_rand($dict, strlen($b) - 1) : mt_rand(0, 39);
        $b[$p] = chr(mt_rand(0, 255));
    }
    file_put_contents("$dir/posting_doc_shards/index1", $b);
    $t = $info_txt;
    if ($r % 3 == 0) $t[mt_rand(0, strlen($t) - 1)] = chr(mt_rand(0, 255));
    file_put_contents("$dir/generation.txt", $t);
    try {
        $ix = GpuPost\Index::openYioopBundle($dir);
        $ix->search([$ids[0], $ids[3]], ['op' => GPUPOST_OR]);
    } catch (GpuPost\Exception $e) {
    } catch (Throwable $e) {
        $other++;
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
echo "random damage: other errors $other\n";
gp_remove_tree($tmp);
?>
--EXPECTF--
generations 5, the dictionary's last 3, words %d
docs 480 (every record), terms %d, format MOD9, positional true
attributes of every doc index: true
Yioop's item fields: 480 of 480 docs equal
ValueError: GpuPost\Index::yioopDocs(): Argument #1 ($docs) doc 1 is no doc of the bundle (no doc record starts there)
generations as Yioop's shard headers say: true
device ran: opencl
queries %d (phrases %d, matches %d), mismatches 0
persistent reused: true
after a shard changed: false
after a shard replaced with its size and time: false
without the active generation's file: true
shards without their dictionaries: 4; every query as the bundle's dictionary says: true (postings it leaves out: some; words Yioop's own lookup finds in fewer generations: %d)
persistent: reused true, after a dictionary file was written again false; a name that is no tier's left: true
GpuPost\Exception: Yioop dictionary BARE/dictionary/7/%dA.dic: byte 0: its %d bytes after the prefix table are not rows of 32
GpuPost\Exception: Yioop dictionary BARE/dictionary/7/%dA.dic: byte %d: a row names 65535 aux rows where %d rows are left
GpuPost\Exception: a shard of the Yioop bundle BARE has no dictionary and the bundle's cannot be read: BARE/dictionary/0: No such file or directory
GpuPost\Exception: cannot open the Yioop bundle DIR/none: No such file or directory
GpuPost\Exception: the Yioop bundle DIR/generation.txt is not a directory
GpuPost\Exception: DIR/posting_doc_shards is no Yioop bundle: DIR/posting_doc_shards/generation.txt: No such file or directory
GpuPost\Exception: DIR/generation.txt: byte 0: not a serialized array
GpuPost\Exception: DIR/generation.txt: byte %d: %s
GpuPost\Exception: DIR/generation.txt: byte 18: ACTIVE is not a generation number
GpuPost\Exception: DIR/generation.txt: ACTIVE generation 99999999 is past the 1000000 a bundle may hold
GpuPost\Exception: DIR/generation.txt: byte 0: no ACTIVE generation
GpuPost\Exception: DIR/generation.txt: byte 18: a value of a type it cannot hold
GpuPost\Exception: DIR/generation.txt: byte 22: a key that is not a string
GpuPost\Exception: cannot open the Yioop shard DIR/posting_doc_shards/index1: No such file or directory
GpuPost\Exception: Yioop shard DIR/posting_doc_shards/index1: byte 0: the header's section lengths (%d, %d, %d, %d) and its 40 bytes do not add up to the file's %d bytes
GpuPost\Exception: Yioop shard DIR/posting_doc_shards/index1: byte %d: list at offset %d, 6 bytes, is not whole words within the %d bytes of postings
GpuPost\Exception: Yioop shard DIR/posting_doc_shards/index1: byte %d: dictionary record 1 names the word id of record 0 again
GpuPost\Exception: Yioop shard DIR/posting_doc_shards/index0: byte %d: posting %d: doc %d is not the start of one of the shard's doc records (the list of dictionary record %d)
random damage: other errors 0
