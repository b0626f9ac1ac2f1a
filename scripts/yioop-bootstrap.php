<?php
/* Loads a Yioop 2021 checkout's IndexShard (and what it requires) outside a Yioop installation,
 * for scripts/yioop-testdata.php and bench/yioop_slices.php: the few settings IndexShard reads
 * that Yioop's Config.php sets only inside a Yioop profile, and the crawl daemon's heartbeat that
 * a shard's save calls. Yioop's own code comes from the checkout given; none of it is here. */
namespace seekquarry\yioop\configs {
    foreach (['NUM_DOCS_PER_GENERATION' => 40000, 'PRECISION' => 10, 'AVG_LINKS_PER_PAGE' => 24,
              'MAX_GENERATIONS' => 10000, 'AD_HOC_TITLE_LENGTH' => 50, 'LOG_TIMEOUT' => 30] as $name => $value) {
        define(__NAMESPACE__ . '\\' . $name, $value);
    }
}

namespace seekquarry\yioop\library {
    class CrawlDaemon { public static function processHandler($x = false) {} }
}

namespace {
    /** Requires $src/library/IndexShard.php (a Yioop checkout's src/), quietly; errors shown. */
    function yioop_require_index_shard(string $src): void
    {
        if (!is_file("$src/library/IndexShard.php")) {
            fwrite(STDERR, "$src: no library/IndexShard.php (a Yioop checkout's src/)\n");
            exit(2);
        }
        ob_start();
        require "$src/library/IndexShard.php";
        ob_end_clean();
        set_error_handler(null);   /* Yioop's Config.php installs its own */
        error_reporting(E_ALL & ~E_DEPRECATED);
        ini_set('display_errors', 'stderr');
    }
}
