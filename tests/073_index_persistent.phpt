--TEST--
GpuPost\Index::open() with 'persistent': reused while the file's path, size and mtime stay, reloaded when it changes, least recently used out first under gpupost.max_resident_bytes, refused past it
--EXTENSIONS--
gpupost
--INI--
gpupost.max_resident_bytes=100K
--FILE--
<?php
$dir = sys_get_temp_dir() . '/gpupost-073-' . getmypid();
@mkdir($dir);
/* empties the resident set: rewriting each file makes its next open drop the old copy */
function gpupost_drop_all(string $dir): void {
    foreach (glob("$dir/*.gpix") as $f) {
        touch($f, time() + 10);
        clearstatcache();
        GpuPost\Index::open($f, ['persistent' => true, 'device' => 'host']);
    }
}
function make(string $path, int $seed, int $n): void {
    mt_srand($seed);
    $l = [];
    for ($t = 0; $t < 20; $t++) {
        $docs = [];
        for ($i = 0; $i < $n; $i++) $docs[mt_rand(0, 100000)] = true;
        ksort($docs);
        $l["t$t"] = gpu_encode_postings(array_keys($docs), GPUPOST_QS);
    }
    /* version 1: its lists decoded in each process, so that the sizes weigh */
    (new GpuPost\Index($l, GPUPOST_QS))->save($path, ['version' => 1]);
}
make("$dir/a.gpix", 1, 500);
make("$dir/b.gpix", 2, 500);
$a1 = GpuPost\Index::open("$dir/a.gpix", ['persistent' => true]);
$a2 = GpuPost\Index::open("$dir/a.gpix", ['persistent' => true]);
$plain = GpuPost\Index::open("$dir/a.gpix");
echo "first reused: ", var_export($a1->info()['reused'], true), ", second: ", var_export($a2->info()['reused'], true),
     ", plain: ", var_export($plain->info()['persistent'], true), "\n";
echo "same answers: ", var_export($a1->search(['t1'], ['op' => GPUPOST_OR]) === $plain->search(['t1'], ['op' => GPUPOST_OR]), true), "\n";
$resident = gpu_info()['resident'];
echo "resident: ", $resident > 0 && $resident === $a1->info()['bytes_host'] + $a1->info()['bytes_device'] ? "the index's bytes" : $resident, "\n";

/* the file changes (another size and mtime): the next open loads it again */
$before = $a1->search(['t3']);
sleep(1);
make("$dir/a.gpix", 3, 400);
$a3 = GpuPost\Index::open("$dir/a.gpix", ['persistent' => true]);
echo "after a rewrite reused: ", var_export($a3->info()['reused'], true), ", answers changed: ",
     var_export($a3->search(['t3']) !== $before, true), ", old object still answers: ", var_export($a1->search(['t3']) === $before, true), "\n";

/* two of ~41K (the mapped file's pages not counted) fit 100K, a third pushes out the least recently used (b, then a's first use);
 * on the host only, so that no device copy counts beside them */
$h = ['persistent' => true, 'device' => 'host'];
unset($a1, $a2, $a3);
gpupost_drop_all($dir);
GpuPost\Index::open("$dir/a.gpix", $h);
$b = GpuPost\Index::open("$dir/b.gpix", $h);
copy("$dir/b.gpix", "$dir/c.gpix");
GpuPost\Index::open("$dir/a.gpix", $h);   /* a used after b */
$c = GpuPost\Index::open("$dir/c.gpix", $h);
echo "a kept: ", var_export(GpuPost\Index::open("$dir/a.gpix", $h)->info()['reused'], true),
     ", b dropped: ", var_export(!GpuPost\Index::open("$dir/b.gpix", $h)->info()['reused'], true), "\n";
echo "resident within the cap: ", var_export(gpu_info()['resident'] <= 100 * 1024, true), "\n";

make("$dir/big.gpix", 4, 5000);
try {
    GpuPost\Index::open("$dir/big.gpix", ['persistent' => true]);
} catch (GpuPost\Exception $e) {
    $m = $e->getMessage();   /* (no PCRE here: its JIT trips valgrind) */
    echo str_contains($m, "$dir/big.gpix would need ") && str_ends_with($m, ' bytes, more than gpupost.max_resident_bytes (102400)')
        ? 'big.gpix refused, naming its size and the cap' : $m, "\n";
}
try { GpuPost\Index::open("$dir/a.gpix", ['persistent' => 1]); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
first reused: false, second: true, plain: false
same answers: true
resident: the index's bytes
after a rewrite reused: false, answers changed: true, old object still answers: true
a kept: true, b dropped: true
resident within the cap: true
big.gpix refused, naming its size and the cap
GpuPost\Index::open(): Argument #2 ($options) option 'persistent' must be of type bool, int given
