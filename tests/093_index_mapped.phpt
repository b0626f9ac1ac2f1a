--TEST--
GpuPost\Index::open() maps a local file: its lists read where they lie (bytes_mapped, not bytes_host); answers equal to the same file read through a stream wrapper and to the index it was saved from, host and device; a mapped index outlives its file's replacement and removal; saved again byte for byte; a damaged list refused at its first use (or by 'verify') as a read one is; persistent copies count only their own memory
--EXTENSIONS--
gpupost
zlib
--INI--
memory_limit=1G
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
mt_srand(93);
$dir = sys_get_temp_dir() . '/gpupost-093-' . getmypid();
@mkdir($dir);

function rand_lists(int $format, int $nt): array {
    $l = [];
    for ($t = 0; $t < $nt; $t++) {
        $docs = [];
        for ($i = mt_rand(0, 300); $i > 0; $i--) $docs[mt_rand(0, 5000)] = true;
        ksort($docs);
        if ($format === GPUPOST_MOD9) {
            $p = [];
            foreach ($docs as $d => $_) {
                $pos = [];
                for ($j = mt_rand(1, 4), $x = 0; $j > 0; $j--) $pos[] = $x += mt_rand(1, 5);
                $p[$d] = $pos;
            }
            $l["t$t"] = gpu_encode_postings($p, GPUPOST_MOD9, GPUPOST_POSTINGS);
        } else {
            $l["t$t"] = gpu_encode_postings(array_keys($docs), $format, GPUPOST_VALUES, $format === GPUPOST_S9 ? ['delta' => 1] : []);
        }
    }
    return $l;
}

$layouts = ['host' => ['device' => 'host']];
if (gp_device_available()) $layouts['device'] = ['device' => 'cpu', 'device_lists' => 'decoded'];
$lens = [];
for ($d = 0; $d <= 5000; $d++) $lens[$d] = mt_rand(1, 80);

$bad = 0;
foreach ([GPUPOST_MOD9, GPUPOST_S9, GPUPOST_QS] as $format) {
    $lists = rand_lists($format, 12);
    $path = "$dir/f$format.gpix";
    $built = new GpuPost\Index($lists, $format, ['device' => 'host', 'doc_lengths' => $lens]);
    $built->save($path);
    $ops = $format === GPUPOST_MOD9 ? [GPUPOST_AND, GPUPOST_OR, GPUPOST_PHRASE] : [GPUPOST_AND, GPUPOST_OR];
    $queries = [];
    for ($q = 0; $q < 40; $q++) {
        $terms = [];
        for ($i = mt_rand(1, 4); $i > 0; $i--) $terms[] = 't' . mt_rand(0, 12);   /* t12: unknown */
        $queries["q$q"] = $terms;
    }
    foreach ($layouts as $name => $layout) {
        $mapped = GpuPost\Index::open($path, $layout);
        $read = GpuPost\Index::open("compress.zlib://$path", $layout);
        $mi = $mapped->info();
        $ri = $read->info();
        if ($mi['bytes_mapped'] !== filesize($path) || $ri['bytes_mapped'] !== 0 || $mi['bytes_host'] >= $ri['bytes_host']) {
            echo "format $format, $name: bytes_mapped {$mi['bytes_mapped']}/{$ri['bytes_mapped']}, bytes_host {$mi['bytes_host']}/{$ri['bytes_host']}\n";
            $bad++;
        }
        foreach ($ops as $op) {
            foreach ([0, 5] as $limit) {
                if ($limit && $op === GPUPOST_PHRASE) continue;
                $o = ['op' => $op, 'limit' => $limit];
                $want = $built->searchBatch($queries, $o);
                if ($mapped->searchBatch($queries, $o) !== $want || $read->searchBatch($queries, $o) !== $want) {
                    echo "format $format, $name, op $op, limit $limit: answers differ\n";
                    $bad++;
                }
                foreach (array_slice($queries, 0, 5) as $terms) {
                    if ($mapped->search($terms, $o) !== $built->search($terms, $o) || $mapped->count($terms, ['op' => $op]) !== $built->count($terms, ['op' => $op])) {
                        echo "format $format, $name, op $op: a single query differs\n";
                        $bad++;
                    }
                }
            }
        }
    }
    /* saved from the mapping: the same bytes */
    GpuPost\Index::open($path)->save("$path.again");
    if (file_get_contents("$path.again") !== file_get_contents($path)) { echo "format $format: saved again differs\n"; $bad++; }
}
echo "mapped, read and built answer alike: ", $bad === 0 ? 'yes' : "no ($bad)", "\n";

/* the file replaced (save() renames a new file over it) and then removed: the mapping keeps the
 * old file's pages */
$path = "$dir/live.gpix";
$old = new GpuPost\Index(['a' => [1 => [1, 2], 7 => [3]], 'b' => [7 => [4]]], GPUPOST_POSTINGS, ['device' => 'host']);
$old->save($path);
$m = GpuPost\Index::open($path, ['device' => 'host']);
(new GpuPost\Index(['a' => [2 => [1]], 'c' => [9 => [1]]], GPUPOST_POSTINGS))->save($path);
echo "after the file is replaced: ", json_encode($m->search(['a', 'b'])), ' ', json_encode($m->search(['a'], ['op' => GPUPOST_OR])), "\n";
echo "a new open sees the new file: ", json_encode(GpuPost\Index::open($path)->search(['a'])), "\n";
unlink($path);
echo "after the file is removed: ", json_encode($m->search(['b'])), "\n";
$m->save("$dir/copy.gpix");
echo "saved from a removed file's mapping: ", json_encode(GpuPost\Index::open("$dir/copy.gpix")->search(['a', 'b'], ['op' => GPUPOST_PHRASE])), "\n";

/* a damaged list is refused when mapped as when read: at its first use (the others answer), or
 * at open() with 'verify' */
$bytes = file_get_contents("$dir/f1.gpix");
$bytes[strlen($bytes) - 30] = chr(ord($bytes[strlen($bytes) - 30]) ^ 0x10);
file_put_contents("$dir/bad.gpix", $bytes);
$all = array_map(fn($t) => "t$t", range(0, 11));
foreach (["$dir/bad.gpix", "compress.zlib://$dir/bad.gpix"] as $i => $p) {
    $e1[$i] = gp_error_of(fn() => GpuPost\Index::open($p)->search($all, ['op' => GPUPOST_OR]));
    $e2[$i] = gp_error_of(fn() => GpuPost\Index::open($p, ['verify' => true]));
    $fine[$i] = GpuPost\Index::open($p)->search(['t0']);
}
echo "damaged: ", $e1[0] === str_replace("compress.zlib://", '', $e1[1]) && $e2[0] === str_replace("compress.zlib://", '', $e2[1]) &&
    str_contains($e1[0], "$dir/bad.gpix: byte ") && str_contains($e1[0], "checksum") && $e1[0] === $e2[0] &&
    $fine[0] === $fine[1] && $fine[0] === GpuPost\Index::open("$dir/f1.gpix")->search(['t0']) ? 'refused alike at first use and by verify; other lists answer' : "$e1[0] / $e1[1] / $e2[0]", "\n";

/* persistent: gpupost's resident set counts an index's own memory, not its mapping */
$p = GpuPost\Index::open("$dir/f1.gpix", ['persistent' => true, 'device' => 'host']);
$i = $p->info();
echo "persistent: ", gpu_info()['resident'] === $i['bytes_host'] + $i['bytes_device'] && $i['bytes_mapped'] > 0 ? "its own bytes" : json_encode($i), "\n";

array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
mapped, read and built answer alike: yes
after the file is replaced: [7] [1,7]
a new open sees the new file: [2]
after the file is removed: [7]
saved from a removed file's mapping: [7]
damaged: refused alike at first use and by verify; other lists answer
persistent: its own bytes
