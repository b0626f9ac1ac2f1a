<?php
/* Makes tests/data/yioop/bundle-2021.tar.gz and bundle-2021.json: an IndexArchiveBundle written
 * by Yioop's own code as its queue server writes one (summaries added in batches, each
 * generation's inverted index built by buildInvertedIndexShard with Yioop's PhraseParser, the
 * generation advanced when full and its dictionary added to the bundle's IndexDictionary; the
 * last generation saved but not yet in that dictionary), what Yioop's own IndexShard reads
 * from every generation for a choice of words, and every doc's summary as Yioop's
 * WebArchiveBundle reads it. Run once, outside the suite; its output is
 * committed. Yioop (GPLv3) is not part of this repository: point the script at a checkout.
 *
 *   php scripts/yioop-bundle-testdata.php YIOOP_SRC OUT_DIR [DOCS_PER_GENERATION]
 *
 * YIOOP_SRC: a Yioop 2021 checkout's src/ (configs/, library/, locale/en_US/resources/); the
 *   committed data came from eagle-prog/yiaap-oasis at 7996139b45c7cc6da26095ac68264ea82d668693.
 *   Yioop's PhraseParser needs PHP's mbstring (php8.2-mbstring).
 *
 * The corpus is Debian's /usr/share/common-licenses, by paragraph, each a page of its own URL. */
namespace {
    use seekquarry\yioop\configs as C;
    use seekquarry\yioop\library as L;

    [, $src, $out, $per_generation] = $argv + [null, null, null, 130];
    if (!$src || !$out || !is_file("$src/configs/Config.php")) {
        fwrite(STDERR, "usage: php scripts/yioop-bundle-testdata.php YIOOP_SRC OUT_DIR [DOCS_PER_GENERATION]\n");
        exit(2);
    }
    require __DIR__ . '/yioop-bundle-lib.php';
    $work = sys_get_temp_dir() . '/yioop-bundle-work-' . getmypid();
    yioop_load($src, $work, (int)$per_generation);

    /* --- the corpus: every license's paragraphs, a page each --- */
    $files = glob('/usr/share/common-licenses/*');
    sort($files);
    $pages = [];
    foreach ($files as $f) {
        if (!is_file($f)) continue;
        foreach (yioop_paragraphs(file_get_contents($f)) as $k => $para) {
            $name = strtolower(basename($f));
            $pages[] = yioop_page("https://licenses.example.org/$name/p$k.html", basename($f) . " paragraph $k", $para,
                1 + count($pages) % 9);
        }
    }
    $pages = array_slice($pages, 0, 480);
    printf("%d pages\n", count($pages));

    /* --- the bundle, as QueueServer and its indexer write one --- */
    $dir = "$out/bundle-2021";
    @mkdir($out, 0777, true);
    yioop_write_bundle($dir, 'gpupost test bundle', $pages, (int)$per_generation);
    $info = unserialize(file_get_contents("$dir/generation.txt"));
    printf("generations 0..%d, the last in the dictionary %d\n", $info['ACTIVE'], $info['LAST_DICTIONARY_SHARD']);

    /* --- what Yioop's IndexShard reads of each word in each generation --- */
    $words = [];
    foreach ($pages as $page) {
        $lists = L\PhraseParser::extractPhrasesInLists($page[L\CrawlConstants::DESCRIPTION], 'en-US');
        foreach ($lists['WORD_LIST'] as $w => $positions) $words[$w] = ($words[$w] ?? 0) + 1;
    }
    arsort($words);
    $ranked = array_keys($words);
    $picked = array_unique(array_merge(array_slice($ranked, 0, 8), array_slice($ranked, 20, 8),
        array_slice($ranked, 40, 8), array_slice($ranked, 100, 8), array_slice($ranked, 200, 8),
        array_slice($ranked, 300, 8), array_slice($ranked, 600, 6), array_slice($ranked, 1000, 6), array_slice($ranked, -6), ['licens', 'softwar', 'copyright', 'free'],
        ['safe:all', 'code:200', 'media:text', 'site:licenses.example.org', 'zzznotaword']));
    $expect = ['generations' => $info['ACTIVE'] + 1, 'last_dictionary' => $info['LAST_DICTIONARY_SHARD'],
               'pages' => count($pages), 'units' => [], 'docs' => [], 'words' => [], 'items' => []];
    ob_start();
    $dictionary = (new L\IndexArchiveBundle($dir))->dictionary;
    ob_end_clean();
    set_error_handler(null);   /* Yioop's constructors install theirs again */
    $shards = [];
    for ($g = 0; $g <= $info['ACTIVE']; $g++) {
        $shards[$g] = new L\IndexShard("$dir/posting_doc_shards/index$g", $g, (int)$per_generation, true);
        $shards[$g]->getShardHeader();
        /* every doc record: its doc index, summary offset and length in tokens */
        $docs = [];
        for ($at = 0; $at < $shards[$g]->docids_len;) {
            $record = $shards[$g]->getDocInfoSubstring($at, 8);
            [, $summary, $doc_int] = unpack('N2', $record);
            $n_keys = $doc_int & 255;
            $docs[] = [$at >> 4, $summary, ($doc_int >> 8) & 0x7FFFF];
            $at += 8 + 8 * $n_keys + ($n_keys % 2 ? 0 : 8);
        }
        $expect['docs'][$g] = $docs;
        $expect['units'][$g] = $shards[$g]->docids_len >> 4;   /* the generation's doc indices */
        /* the header's counts, as Yioop's IndexShard reads them (its BM25F statistics) */
        $expect['headers'][$g] = [$shards[$g]->generation, $shards[$g]->num_docs_per_generation, $shards[$g]->num_docs,
            $shards[$g]->num_link_docs, $shards[$g]->len_all_docs, $shards[$g]->len_all_link_docs];
    }
    foreach ($picked as $w) {
        $id = L\crawlHashWord($w, true);
        $entry = ['word' => $w, 'id' => bin2hex($id), 'postings' => []];
        /* the generations the bundle's own IndexDictionary gives the word (what Yioop reads for
         * the generations merged there, and all a shard saved without its dictionary has) */
        ob_start();
        $in_dictionary = $dictionary->getWordInfo($id, true);
        ob_end_clean();
        $entry['dictionary_generations'] = $in_dictionary === false ? []
            : array_values(array_unique(array_map(fn($e) => (int)$e[0], $in_dictionary)));
        for ($g = 0; $g <= $info['ACTIVE']; $g++) {
            $shard = $shards[$g];
            $word_info = $shard->getWordInfo($id, true);
            if ($word_info === false) continue;
            [$first, $last] = $word_info;
            $next = $first;
            while ($next <= $last) {
                foreach ($shard->getPostingsSlice($first, $next, $last, 200) as $key => $item) {
                    $summary = $item[L\CrawlConstants::SUMMARY_OFFSET];
                    $entry['postings'][] = [$g, $summary, $item[L\CrawlConstants::POSITION_LIST] ?? []];
                    /* the item's fields Yioop ranks by, once a doc: its key, DOC_RANK, DOC_LEN, IS_DOC */
                    $expect['items']["$g:$summary"] ??= [bin2hex($key), (string)$item[L\CrawlConstants::DOC_RANK],
                        $item[L\CrawlConstants::DOC_LEN], $item[L\CrawlConstants::IS_DOC]];
                }
            }
        }
        $expect['words'][] = $entry;
    }
    /* each doc's summary as Yioop's own WebArchiveBundle::getPage reads it: the MD5 of its
     * serialize(), and the whole page for the first docs of each generation */
    $reader = new L\IndexArchiveBundle($dir);
    $expect['summaries'] = [];
    foreach ($expect['docs'] as $g => $docs) {
        foreach ($docs as $k => [, $summary]) {
            $page = $reader->getPage($summary, $g);
            $expect['summaries'][$g][$summary] = md5(serialize($page));
            if ($k < 2) $expect['page_samples'][] = [$g, $summary, base64_encode(serialize($page))];
        }
    }
    file_put_contents("$out/bundle-2021.json.gz", gzencode(json_encode($expect, JSON_THROW_ON_ERROR) . "\n", 9));
    printf("%d words read back by Yioop\n", count($expect['words']));

    /* --- the same pages written again with Yioop's RESAVE_SHARDS_WITHOUT_DICTIONARY: each
     * generation's shard saved without its dictionary once the bundle's holds it (the active one
     * keeps its own); those shards alone are kept, the rest being the first bundle's byte for
     * byte --- */
    define('seekquarry\\yioop\\configs\\RESAVE_SHARDS_WITHOUT_DICTIONARY', true);
    $bare = "$out/bundle-2021-nodict";
    yioop_write_bundle($bare, 'gpupost test bundle', $pages, (int)$per_generation);
    foreach (['generation.txt', 'summaries', 'dictionary'] as $part) {
        exec('diff -r ' . escapeshellarg("$dir/$part") . ' ' . escapeshellarg("$bare/$part"), $lines, $rc);
        if ($rc !== 0) {
            fwrite(STDERR, "the bundle written again differs in $part\n");
            exit(1);
        }
    }
    $kept = [];
    foreach (glob("$bare/posting_doc_shards/index*") as $f) {
        $h = unpack('N2', file_get_contents($f, false, null, 0, 8));
        if ($h[2] == 0) $kept[] = 'posting_doc_shards/' . basename($f);
        else exec('rm ' . escapeshellarg($f));
    }
    foreach (['generation.txt', 'summaries', 'dictionary'] as $part) exec('rm -r ' . escapeshellarg("$bare/$part"));
    yioop_tar_gz($bare, "$out/bundle-2021-nodict");
    exec('rm -rf ' . escapeshellarg($bare));
    printf("shards saved without their dictionaries: %s\n", implode(' ', $kept));

    /* --- the bundle as one archive --- */
    yioop_tar_gz($dir, "$out/bundle-2021");
    exec('rm -rf ' . escapeshellarg($dir) . ' ' . escapeshellarg($work));
    printf("%s: %d bytes\n", "$out/bundle-2021.tar.gz", filesize("$out/bundle-2021.tar.gz"));
}
