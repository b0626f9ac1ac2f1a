<?php
/* Makes tests/data/yioop/: a Yioop IndexShard file written by Yioop's own IndexShard (2021), what
 * Yioop's own readers return for it (its slices, its gallops, unpackPosting and
 * docIndexModified9 over each list), and MOD9 blobs written by a pre-2019 Yioop's packPosting
 * with what that Yioop's unpackPosting reads back. Run once, outside the suite; its output is
 * committed. Yioop (GPLv3) is not part of this repository: point the script at checkouts.
 *
 *   php -d extension=modules/gpupost.so scripts/yioop-testdata.php YIOOP_SRC OLD_YIOOP_UTILITY OUT_DIR
 *
 * (With the extension loaded it also has Yioop's unpackPosting read back gpupost's lossless
 * postings, `'combined' => false`: lossless-read-by-yioop.json.)
 *
 * YIOOP_SRC: a Yioop 2021 checkout's src/ (its library/IndexShard.php, Utility.php,
 *   PersistentStructure.php, CrawlConstants.php and configs/); the committed data came from
 *   eagle-prog/yiaap-oasis at 7996139b45c7cc6da26095ac68264ea82d668693 (2021-04-16).
 * OLD_YIOOP_UTILITY: lib/utility.php of a Yioop from before 2019; the committed data came from
 *   jakop345/yioop at 80b326aef4fcbbb92a7446359ae0d628b97d6bba (2014-12-14).
 *
 * The corpus is Debian's /usr/share/common-licenses (the texts, whole and by paragraph), so the
 * positions are real text's. Some docs carry 251 doc keys (Yioop allows up to 255) so that the
 * doc offsets cross 2^15, where Yioop's combined form starts: the shard holds postings Yioop's
 * combined form damages (FORMATS.md section 1, "Yioop's defects"). */
namespace {
    use seekquarry\yioop\library as L;

    require __DIR__ . '/yioop-bootstrap.php';

    /* a slice as its docs in order and one digest of their positions (the whole lists are kept
     * in 'unpacked') */
    function slice_digest(array $postings): array
    {
        return ['docs' => array_column($postings, 0), 'positions_md5' => md5(json_encode(array_column($postings, 1)))];
    }

    [, $src, $old_utility, $out] = $argv + [null, null, null, null];
    if (!$src || !$old_utility || !$out) {
        fwrite(STDERR, "usage: php scripts/yioop-testdata.php YIOOP_SRC OLD_YIOOP_UTILITY OUT_DIR\n");
        exit(2);
    }
    yioop_require_index_shard($src);
    @mkdir($out, 0777, true);

    /* --- the corpus: each license whole, then its paragraphs --- */
    $files = glob('/usr/share/common-licenses/*');
    sort($files);
    $paragraphs = $whole = [];
    foreach ($files as $f) {
        if (!is_file($f)) continue;
        $t = file_get_contents($f);
        $whole[] = $t;
        foreach (preg_split('/\n\s*\n/', $t) as $para) {
            if (str_word_count($para) >= 3) $paragraphs[] = $para;
        }
    }
    /* paragraphs below doc offset 2^15, whole texts (first positions past 511) above it */
    $texts = array_merge(array_slice($paragraphs, 0, 460), $whole);
    $tokens = fn(string $t) => preg_split('/[^a-z0-9]+/', strtolower($t), -1, PREG_SPLIT_NO_EMPTY);

    /* --- the shard, written by Yioop: docs 0..199 plain, 200..459 with 251 doc keys, the rest
     * plain again (their offsets past 2^15, where the combined form is written) --- */
    $shard_path = "$out/shard-2021.bin";
    @unlink($shard_path);
    $shard = new L\IndexShard($shard_path, 0, 40000);
    $doc_of_key = [];
    $doc_index = [];
    $truth = [];    /* word => [[doc index, positions], ...]: what the shard should say */
    $lengths = [];  /* doc index => tokens */
    foreach ($texts as $i => $text) {
        $words = $tokens($text);
        $lists = [];
        foreach ($words as $p => $w) $lists[$w][] = $p + 1;
        $lengths[$shard->docids_len >> 4] = count($words);
        foreach ($lists as $w => $positions) $truth[$w][] = [$shard->docids_len >> 4, $positions];
        if ($i % 7 == 0) $truth['site:example' . ($i % 3)][] = [$shard->docids_len >> 4, []];
        $keys = substr(md5("url$i", true), 0, 8) . substr(md5("text$i", true), 0, 8) . substr(md5("host$i", true), 0, 8);
        if ($i >= 200 && $i < 460) $keys .= str_repeat("\0", 8 * 248);
        $meta = $i % 7 == 0 ? ['site:example' . ($i % 3)] : [];
        $doc_index[$i] = $shard->docids_len >> 4;
        $doc_of_key[substr($keys, 0, 24)] = $doc_index[$i];
        if (!$shard->addDocumentWords($keys, 1000 + $i, $lists, $meta, true)) {
            fwrite(STDERR, "addDocumentWords refused doc $i\n");
            exit(1);
        }
    }
    $shard->save();
    unset($shard);
    printf("shard: %s, %d bytes, %d docs (doc indices %d..%d)\n", $shard_path, filesize($shard_path),
        count($texts), 0, max($doc_index));

    /* --- Yioop's readers over it --- */
    $shard = new L\IndexShard($shard_path, 0, 40000, true);
    $shard->getShardHeader();
    $bytes = file_get_contents($shard_path);
    $h = unpack('N10', substr($bytes, 0, 40));
    $postings_at = 40 + $h[1] + $h[2];
    $postings = substr($bytes, $postings_at, $h[3]);
    $all_words = [];
    foreach ($texts as $text) foreach ($tokens($text) as $w) $all_words[$w] = ($all_words[$w] ?? 0) + 1;
    arsort($all_words);
    $ranked = array_keys($all_words);
    /* frequent, middling and rare words, the meta words, and a word that is in no doc */
    /* and words whose first position in a doc past offset 2^15 is 256..511 (docIndexModified9
     * reads doc + 1) or 512..1023 (unpackPosting reads doc + 1 too: the combined form's loss) */
    $defect = [];
    foreach ($texts as $i => $text) {
        if ($doc_index[$i] < (1 << 15)) continue;
        $first_at = [];
        foreach ($tokens($text) as $p => $w) $first_at[$w] ??= $p + 1;
        foreach ($first_at as $w => $p) {
            if ($p >= 256 && $p < 1024 && count($defect) < 16 && !isset($defect[$w]) && ($p >= 512) === (count($defect) % 2 == 0)) $defect[$w] = true;
        }
    }
    $picked = array_unique(array_merge(array_slice($ranked, 0, 6), array_slice($ranked, 200, 8),
        array_slice($ranked, 1500, 8), array_slice($ranked, -6), array_keys($defect),
        ['site:example0', 'site:example1', 'zzznotaword']));
    $expect = ['postings_offset' => $postings_at, 'docs' => count($texts), 'lengths' => $lengths, 'terms' => []];
    foreach ($picked as $w) {
        $id = L\crawlHashWord($w, true);
        $info = $shard->getWordInfo($id, true);
        $term = ['word' => $w, 'id' => bin2hex($id), 'truth' => $truth[$w] ?? []];
        if ($info === false) {
            $term['info'] = false;
            $expect['terms'][] = $term;
            continue;
        }
        [$first, $last, $count] = $info;
        $term['info'] = [$first, $last, $count];
        /* unpackPosting and docIndexModified9 over the whole list, posting by posting */
        $list = substr($postings, $first, $last + 4 - $first);
        $off = 0;
        $unpacked = [];
        while ($off < strlen($list)) {
            $at = $off;
            $word = unpack('N', substr($list, $off, 4))[1];
            [$doc, $positions] = L\unpackPosting($list, $off);
            $unpacked[] = [$first + $at, $doc, $positions, L\docIndexModified9($word)];
        }
        $term['unpacked'] = $unpacked;
        /* the slices WordIterator reads: 200 at a time, from each slice's next offset */
        $slices = [];
        $next = $first;
        while ($next <= $last) {
            $from = $next;
            $got = $shard->getPostingsSlice($first, $next, $last, 200);
            $docs = [];
            foreach ($got as $key => $item) $docs[] = [$doc_of_key[substr($key, 0, 24)] ?? -1, $item[L\CrawlConstants::POSITION_LIST]];
            $slices[] = ['from' => $from, 'next' => $next, 'postings' => slice_digest($docs)];
        }
        $term['slices'] = $slices;
        /* a slice of 7 from a word inside a posting (Yioop walks back to its start) */
        $mid = $first + 4 * intdiv(($last - $first) / 4, 2);
        $next = $mid;
        $got = $shard->getPostingsSlice($first, $next, $last, 7);
        $docs = [];
        foreach ($got as $key => $item) $docs[] = [$doc_of_key[substr($key, 0, 24)] ?? -1, $item[L\CrawlConstants::POSITION_LIST]];
        $term['mid_slice'] = ['from' => $mid, 'next' => $next, 'postings' => slice_digest($docs)];
        /* its gallops: from the list's start and from its middle, to docs around its own */
        $targets = [0, 1, 2 << 14, 40000];
        foreach ($unpacked as $k => $u) {
            if ($k % max(1, intdiv(count($unpacked), 6)) == 0) array_push($targets, $u[1], $u[1] + 1, max(0, $u[1] - 1));
        }
        $gallops = [];
        foreach (array_unique($targets) as $d) {
            foreach ([$first, $mid] as $from) {
                $r = $shard->nextPostingOffsetDocOffset($from, $last, $d << 4);
                $gallops[] = [$from, $d, $r === false ? false : [$r[0], $r[1] >> 4]];
            }
        }
        $term['gallops'] = $gallops;
        $expect['terms'][] = $term;
    }
    file_put_contents("$out/shard-2021.json", json_encode($expect, JSON_PRETTY_PRINT) . "\n");
    printf("readers: %d terms\n", count($expect['terms']));

    /* --- gpupost's lossless postings ('combined' => false) read back by Yioop's unpackPosting:
     * every first gap 1..1023 for docs across 0..2^27-2 (needs the extension loaded) --- */
    if (function_exists('gpu_encode_postings')) {
        $lossless = ['docs' => [0, 1, 2, (1 << 15) - 2, (1 << 15) - 1, 1 << 15, (1 << 15) + 1, 1 << 16, 1 << 17,
            (1 << 17) + 1, (1 << 18) - 2, (1 << 18) - 1, 1 << 18, 1 << 20, (1 << 27) - 2], 'blobs_md5' => [], 'read' => []];
        foreach ($lossless['docs'] as $doc) {
            $all = '';
            $read = [];
            for ($gap = 1; $gap <= 1023; $gap++) {
                $blob = gpu_encode_postings([$doc => [$gap, $gap + 3]], GPUPOST_MOD9, GPUPOST_POSTINGS, ['combined' => false]);
                $all .= $blob;
                $off = 0;
                [$d, $positions] = L\unpackPosting($blob, $off);
                $read[] = [$d, ...$positions];
            }
            $lossless['blobs_md5'][] = md5($all);
            $lossless['read'][] = $read;
        }
        file_put_contents("$out/lossless-read-by-yioop.json", json_encode($lossless) . "\n");
        printf("lossless: %d postings read by unpackPosting\n", 1023 * count($lossless['docs']));
    }

    /* --- pre-2019 blobs: that Yioop's packPosting, and its unpackPosting reading them back --- */
    define('BASE_DIR', __DIR__);
    $GLOBALS['MOD9_PACK_POSSIBILITIES'] = [0, 24, 12, 7, 6, 5, 4, 3, 3, 3, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
    $GLOBALS['MOD9_NUM_ELTS_CODES'] = [24 => 63, 12 => 62, 7 => 60, 6 => 56, 5 => 52, 4 => 48, 3 => 32, 2 => 16, 1 => 0];
    $GLOBALS['MOD9_NUM_BITS_CODES'] = [63 => 1, 62 => 2, 60 => 3, 56 => 4, 52 => 5, 48 => 6, 32 => 9, 16 => 14, 0 => 28];
    $GLOBALS['MOD9_NUM_ELTS_DECODES'] = [63 => 24, 62 => 12, 60 => 7, 56 => 6, 52 => 5, 48 => 4, 32 => 3, 16 => 2, 0 => 1];
    require $old_utility;
    $legacy = [];
    $docs = [0, 1, 2, 5, 100, (1 << 15) - 1, 1 << 15, (1 << 15) + 1, (1 << 15) + 2, 40001, 40002, 65535,
        (1 << 17) + 3, (1 << 18) - 2, (1 << 18) - 1, 1 << 18, 1000000];
    $firsts = [0, 1, 2, 7, 255, 256, 300, 510, 511, 512, 513, 700, 1000, 1022, 1023, 1024, 5000];
    foreach ($docs as $doc) {
        foreach ($firsts as $p0) {
            $positions = [$p0, $p0 + 3, $p0 + 40];
            $blob = packPosting($doc, $positions);
            $off = 0;
            [$got_doc, $got_positions] = unpackPosting($blob, $off);
            $legacy[] = ['doc' => $doc, 'positions' => $positions, 'blob' => bin2hex($blob),
                         'yioop_doc' => $got_doc, 'yioop_positions' => $got_positions];
        }
        /* a posting without positions (a meta word's) */
        $blob = packPosting($doc, []);
        $off = 0;
        [$got_doc, $got_positions] = unpackPosting($blob, $off);
        $legacy[] = ['doc' => $doc, 'positions' => [], 'blob' => bin2hex($blob),
                     'yioop_doc' => $got_doc, 'yioop_positions' => $got_positions];
    }
    /* and one list of many postings, as a pre-2019 shard holds a term's */
    $list = '';
    $list_want = [];
    for ($i = 0, $doc = 3; $i < 300; $i++, $doc += 1 + ($i * 37) % 400) {
        $positions = [($i * 131) % 1100, ($i * 131) % 1100 + 1 + $i % 5];
        $list .= packPosting($doc, $positions);
    }
    $off = 0;
    while ($off < strlen($list)) $list_want[] = unpackPosting($list, $off);
    file_put_contents("$out/legacy-2014.json", json_encode(['postings' => $legacy, 'list' => bin2hex($list),
        'list_yioop' => $list_want], JSON_PRETTY_PRINT) . "\n");
    printf("legacy: %d postings, a list of %d\n", count($legacy), count($list_want));
}
