<?php
/* What scripts/yioop-bundle-testdata.php and bench/yioop_bundle.php share: Yioop 2021's own code
 * loaded outside an installation (Config.php with a profile of defaults under a work directory,
 * IndexArchiveBundle, PhraseParser), pages made from text as Yioop's fetcher would describe them,
 * and a bundle written from them as Yioop's queue server writes one. Yioop (GPLv3) is not part of
 * this repository: its code comes from the checkout given. Yioop's PhraseParser needs PHP's
 * mbstring (php8.2-mbstring). */
namespace {
    use seekquarry\yioop\library as L;

    /** Loads Yioop from $src (a checkout's src/) with $work as its work and crawl directory. */
    function yioop_load(string $src, string $work, int $per_generation): void
    {
        if (!is_file("$src/configs/Config.php")) {
            fwrite(STDERR, "$src: no configs/Config.php (a Yioop checkout's src/)\n");
            exit(2);
        }
        @mkdir("$work/schedules", 0777, true);
        @mkdir("$work/cache", 0777, true);
        ini_set('memory_limit', '4G');   /* Yioop advances a generation near memory_limit (-1 included) */
        /* Config.php outside an installation: a profile without a Profile.php takes its defaults */
        foreach (['BASE_DIR' => realpath($src), 'PROFILE' => true, 'WORK_DIRECTORY' => $work, 'CRAWL_DIR' => $work,
                  'NUM_DOCS_PER_GENERATION' => $per_generation] as $name => $value) {
            define('seekquarry\\yioop\\configs\\' . $name, $value);
        }
        ob_start();
        @require "$src/configs/Config.php";
        require_once "$src/library/IndexArchiveBundle.php";
        require_once "$src/library/PhraseParser.php";
        require_once "$src/library/UrlParser.php";
        ob_end_clean();
        set_error_handler(null);
        error_reporting(E_ALL & ~E_DEPRECATED);
        ini_set('display_errors', 'stderr');
    }

    /** A page as Yioop's fetcher describes one. */
    function yioop_page(string $url, string $title, string $para, int $rank): array
    {
        return [
            L\CrawlConstants::URL => $url,
            L\CrawlConstants::TITLE => $title,
            L\CrawlConstants::DESCRIPTION => $para,
            L\CrawlConstants::HASH => L\crawlHash($para, true),
            L\CrawlConstants::LANG => 'en-US',
            L\CrawlConstants::TYPE => 'text/html',
            L\CrawlConstants::HTTP_CODE => 200,
            L\CrawlConstants::ENCODING => 'UTF-8',
            L\CrawlConstants::SIZE => strlen($para),
            L\CrawlConstants::LINKS => [],
            L\CrawlConstants::DOC_RANK => $rank,
        ];
    }

    /** The paragraphs of a text of at least $min_words words, whitespace folded. */
    function yioop_paragraphs(string $text, int $min_words = 4): array
    {
        $out = [];
        foreach (preg_split('/\n\s*\n/', $text) as $k => $para) {
            $para = trim(preg_replace('/\s+/', ' ', $para));
            if (str_word_count($para) >= $min_words) $out[$k] = $para;
        }
        return $out;
    }

    /** Writes $pages into a new bundle at $dir as QueueServer and its indexer do: summaries
     * added in batches, the generation advanced when full (its inverted index built and its
     * dictionary merged into the bundle's), the last generation saved. Returns the bundle's
     * generation.txt. */
    function yioop_write_bundle(string $dir, string $description, array $pages, int $per_generation,
                                int $batch = 37): array
    {
        exec('rm -rf ' . escapeshellarg($dir));
        @mkdir(dirname($dir), 0777, true);
        ob_start();   /* Yioop logs each step to standard output */
        $bundle = new L\IndexArchiveBundle($dir, false, $description, $per_generation, false);
        set_error_handler(null);   /* Yioop's constructors install theirs again */
        foreach (array_chunk($pages, $batch) as $list) {
            $generation = $bundle->initGenerationToAdd(count($list));
            $bundle->addPages($generation, L\CrawlConstants::SUMMARY_OFFSET, $list, count($list));
        }
        $bundle->forceSave();
        ob_end_clean();
        return unserialize(file_get_contents("$dir/generation.txt"));
    }

    /** The benchmarks' corpora, a page a paragraph, at most $n_pages of them: 'docs', Python's
     * documentation sources, Debian's licenses and packages' copyright files (without
     * python3-doc, the other texts alone); 'changelogs', the installed packages' Debian and
     * upstream change logs. */
    function yioop_docs_corpus(int $n_pages, string $kind = 'docs'): array
    {
        $texts = [];
        if ($kind === 'changelogs') {
            foreach (glob('/usr/share/doc/*/{changelog.Debian.gz,changelog.gz,NEWS.Debian.gz}', GLOB_BRACE) ?: [] as $f) $texts[$f] = $f;
        } else {
            foreach (glob('/usr/share/doc/python3-doc/html/_sources/{*,*/*,*/*/*}.txt', GLOB_BRACE) ?: [] as $f) $texts[$f] = $f;
            foreach (glob('/usr/share/common-licenses/*') as $f) $texts[$f] = $f;
            foreach (glob('/usr/share/doc/*/copyright') as $f) $texts[$f] = $f;
        }
        ksort($texts);
        $pages = [];
        foreach ($texts as $f) {
            if (!is_file($f)) continue;
            $slug = trim(preg_replace('/[^a-z0-9]+/', '-', strtolower($f)), '-');
            $text = file_get_contents($f);
            if (str_ends_with($f, '.gz')) $text = (string)@gzdecode($text);
            foreach (yioop_paragraphs($text) as $k => $para) {
                $pages[] = yioop_page("https://docs.example.org/$slug/p$k.html", basename($f) . " paragraph $k", $para,
                    1 + count($pages) % 9);
                if (count($pages) >= $n_pages) break 2;
            }
        }
        return $pages;
    }

    /** The bundle of $pages at $dir, written by Yioop (once: kept while its generation.txt is
     * there); its generation.txt. */
    function yioop_bundle_once(string $dir, array $pages, int $per_generation): array
    {
        if (!is_file("$dir/generation.txt")) {
            $t = microtime(true);
            $info = yioop_write_bundle($dir, 'gpupost bench bundle', $pages, $per_generation, 100);
            printf("built by Yioop: %d pages in generations 0..%d in %.0f s\n", count($pages), $info['ACTIVE'], microtime(true) - $t);
        }
        return unserialize(file_get_contents("$dir/generation.txt"));
    }

    /** $dir's files as OUT.tar.gz (PharData: the same bytes for the same files). */
    function yioop_tar_gz(string $dir, string $out): void
    {
        @unlink("$out.tar");
        @unlink("$out.tar.gz");
        $tar = new PharData("$out.tar");
        $tar->buildFromDirectory($dir);
        $tar->compress(Phar::GZ);
        unset($tar);
        unlink("$out.tar");
    }
}
