--TEST--
GpuPost\Index hardening with Yioop's shards (tests/091's cases that read Yioop's own data, which needs zlib): a shard whose dictionary records name one list again and again is refused before its lists are read again and again; open() refuses a shard that openYioopShard() keeps persistent (each reader its own index)
--EXTENSIONS--
gpupost
zlib
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$dir = sys_get_temp_dir() . '/gpupost-092-' . getmypid();
@mkdir($dir);
$msg = fn(callable $f) => preg_replace('~/\S*gpupost-092-\d+~', 'DIR', gp_error_of($f));

[$shard_ref, $shard_bytes] = yioop_shard_data();
$dict = 40 + unpack('N', $shard_bytes)[1];
$records = intdiv(unpack('N', $shard_bytes, 4)[1], 32);
$same = $shard_bytes;
for ($r = 1; $r < $records; $r++) $same = substr_replace($same, substr($shard_bytes, $dict + 24, 8), $dict + 32 * $r + 24, 8);
file_put_contents("$dir/same.shard", $same);
echo "a shard's lists repeated: ", $msg(fn() => GpuPost\Index::openYioopShard("$dir/same.shard")), "\n";

file_put_contents("$dir/shard", $shard_bytes);
$p = GpuPost\Index::openYioopShard("$dir/shard", ['persistent' => true]);
echo "open() of a file openYioopShard() keeps: ", $msg(fn() => GpuPost\Index::open("$dir/shard", ['persistent' => true])), "\n";
echo "openYioopShard() again: ", GpuPost\Index::openYioopShard("$dir/shard", ['persistent' => true])->info()['reused'] ? "reused" : "LOADED AGAIN", "\n";

foreach (glob("$dir/*") as $x) @unlink($x);
@rmdir($dir);
?>
--EXPECTF--
a shard's lists repeated: GpuPost\Exception: Yioop shard DIR/same.shard: byte %d: the lists of dictionary records 0 and 1 overlap (at byte %d of the postings)
open() of a file openYioopShard() keeps: GpuPost\Exception: index file DIR/shard: byte 0: not a gpupost index (the magic is not "GPUPIDX\0")
openYioopShard() again: reused
