<?php
/* Yioop's slice path with and without gpupost, side by side in one process, on the same shard:
 * a Yioop 2021 checkout with examples/yioop/IndexShard.php.patch applied (the patch's
 * IndexShard::$gpupost switches between Yioop's PHP decoding and gpupost's). Three readings of
 * every term of the shard, each checked equal between the two paths before it is timed:
 *   slices   WordIterator's way: getPostingsSlice, 200 words at a time, items built (makeItem)
 *   decode   the postings alone: Yioop's getPostingAtOffset + unpackPosting loop against
 *            gpu_postings_slice over the whole list
 *   seek     nextPostingOffsetDocOffset to 16 docs spread over each list (the gpupost path
 *            gallops as Yioop does, docIndexModified9's docs: the same offsets)
 * The shard: tests/data/yioop/shard-2021.bin.gz (477 docs), or, with `build N`, one Yioop's
 * IndexShard writes here from the first N files of the demo corpus (kept under /tmp).
 *   php -d extension=modules/gpupost.so bench/yioop_slices.php PATCHED_YIOOP_SRC [build N] [ROUNDS] */
namespace {
    use seekquarry\yioop\library as L;

    require __DIR__ . '/../scripts/yioop-bootstrap.php';
    $src = $argv[1] ?? null;
    if (!$src) {
        fwrite(STDERR, "usage: php bench/yioop_slices.php PATCHED_YIOOP_SRC [build N] [ROUNDS]\n");
        exit(2);
    }
    yioop_require_index_shard($src);
    if (!property_exists(L\IndexShard::class, 'gpupost')) {
        fwrite(STDERR, "$src: IndexShard.php is not patched (examples/yioop/IndexShard.php.patch)\n");
        exit(2);
    }
    $build = ($argv[2] ?? '') === 'build' ? (int)($argv[3] ?? 0) : 0;
    $rounds = max(1, (int)($argv[$build ? 4 : 2] ?? 3));
    if ($build) {
        require __DIR__ . '/../demo/corpus.php';
        $path = "/tmp/gpupost-bench-yioop-$build.shard";
        if (!is_file($path)) {
            $files = array_merge(glob('/usr/share/common-licenses/*') ?: [], glob('/usr/share/doc/*/copyright') ?: []);
            $files = array_slice(array_values(array_filter($files, 'is_file')), 0, $build);
            $shard = new L\IndexShard($path, 0, 40000);
            foreach ($files as $i => $f) {
                $lists = [];
                foreach (demo_tokens((string)file_get_contents($f)) as $p => $w) $lists[$w][] = $p + 1;
                $shard->addDocumentWords(substr(md5("u$i", true), 0, 8) . substr(md5("t$i", true), 0, 8) . substr(md5("h$i", true), 0, 8),
                    $i, $lists, [], true);
            }
            ob_start();
            $shard->save();
            ob_end_clean();
        }
    } else {
        $path = sys_get_temp_dir() . '/gpupost-bench-yioop-test.shard';
        file_put_contents($path, gzdecode(file_get_contents(__DIR__ . '/../tests/data/yioop/shard-2021.bin.gz')));
    }
    $bytes = file_get_contents($path);
    $h = unpack('N10', substr($bytes, 0, 40));
    $dict = substr($bytes, 40 + $h[1], $h[2]);
    $terms = [];
    for ($i = 0; $i < strlen($dict); $i += 32) {
        [, , $off, $len] = unpack('N3', substr($dict, $i + 20, 12));
        if ($len & 0x80000000) $len &= 0xFFFF;
        $terms[] = [$off, $off + $len - 4];
    }
    $shard = new L\IndexShard($path, 0, 40000, true);
    $shard->getShardHeader();
    $postings = 0;

    $slices = function () use ($shard, $terms) {
        $out = [];
        foreach ($terms as [$first, $last]) {
            $next = $first;
            while ($next <= $last) $out[] = $shard->getPostingsSlice($first, $next, $last, 200);
        }
        return $out;
    };
    $decode = function (bool $gp) use ($shard, $terms, &$postings) {
        $out = [];
        $postings = 0;
        foreach ($terms as [$first, $last]) {
            if ($gp) {
                $s = gpu_postings_slice($shard->gpupostList($first, $last), 0, $last - $first, PHP_INT_MAX,
                    GPUPOST_POSTINGS, ['count' => 'postings']);
                $out[] = [$s['docs'], $s['positions']];
                $postings += count($s['docs']);
                continue;
            }
            $docs = $positions = [];
            for ($at = $first >> 2; $at <= $last >> 2;) {
                $posting = $shard->getPostingAtOffset($at, $start, $end);
                $o = 0;
                [$docs[], $positions[]] = L\unpackPosting($posting, $o);
                $at = $end + 1;
            }
            $out[] = [$docs, $positions];
            $postings += count($docs);
        }
        return $out;
    };
    $targets = [];
    foreach ($decode(true) as $k => [$docs]) {
        $t = [];
        for ($j = 0; $j < 16; $j++) $t[] = $docs[intdiv($j * count($docs), 16)] + ($j & 1);
        $targets[$k] = $t;
    }
    $seek = function () use ($shard, $terms, $targets) {
        $out = [];
        foreach ($terms as $k => [$first, $last]) {
            $shard->gpupostList($first, $last);   /* the term's list, as its slices would have read it */
            foreach ($targets[$k] as $d) $out[] = $shard->nextPostingOffsetDocOffset($first, $last, $d << 4);
        }
        return $out;
    };
    $time = function (callable $f) use ($rounds) {
        $best = INF;
        for ($r = 0; $r < $rounds; $r++) {
            $t = hrtime(true);
            $f();
            $best = min($best, (hrtime(true) - $t) / 1e9);
        }
        return $best;
    };
    printf("# %s: %d terms, %d bytes of postings; PHP %s; best of %d rounds\n", $build ? "shard of $build demo files" : 'tests/data/yioop shard',
        count($terms), $h[3], PHP_VERSION, $rounds);
    printf("%-8s %12s %12s %9s  %s\n", 'reading', 'Yioop PHP s', 'gpupost s', 'speed-up', 'check');
    foreach (['slices' => $slices, 'decode' => $decode, 'seek' => $seek] as $name => $f) {
        L\IndexShard::$gpupost = false;
        $shard->gpupost_list = $shard->gpupost_last = [];
        $shard->gpupost_list_bytes = 0;
        $a = $name === 'decode' ? $f(false) : $f();
        $ta = $time($name === 'decode' ? fn() => $f(false) : $f);
        L\IndexShard::$gpupost = true;
        $b = $name === 'decode' ? $f(true) : $f();
        $tb = $time($name === 'decode' ? fn() => $f(true) : $f);
        $check = serialize($a) === serialize($b) ? 'equal' : 'DIFFERENT';
        printf("%-8s %12.4f %12.4f %8.1fx  %s\n", $name, $ta, $tb, $ta / $tb, $check);
    }
    printf("(%d postings)\n", $postings);
}
