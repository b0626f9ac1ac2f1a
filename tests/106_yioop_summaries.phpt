--TEST--
GpuPost\Index::yioopSummaries: every doc's summary of a bundle written by Yioop's own code read from its web archives equals what Yioop's own WebArchiveBundle::getPage returns (serialize() byte for byte, whole pages for a sample), in one call whatever the order and the generations; docs without a record, indexes not from a bundle, and damaged archives (a length prefix, a gzip header, the deflate stream, the CRC, a cut file, a missing file, a record that is not a page, an object) refused with the file and byte named
--EXTENSIONS--
gpupost
zlib
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$tmp = sys_get_temp_dir() . '/gpupost-106-' . getmypid();
gp_remove_tree($tmp);
[$want, $dir] = yioop_bundle_data($tmp);
$ix = GpuPost\Index::openYioopBundle($dir);
$all = [];
foreach ($ix->attributes(range(0, 4000)) as $d => $a) if ($a) $all[$d] = $a;
echo "docs with records: ", count($all), "\n";

/* every doc, in a shuffled order: the same pages as Yioop's getPage */
mt_srand(106);
$docs = array_keys($all);
shuffle($docs);
$pages = $ix->yioopSummaries($docs);
$bad = 0;
foreach ($docs as $d) {
    $g = (int)$all[$d]['generation'];
    $o = (int)$all[$d]['summary_offset'];
    if (!isset($pages[$d]) || md5(serialize($pages[$d])) !== $want['summaries'][$g][$o]) $bad++;
}
echo "pages equal to Yioop's: ", count($pages) - $bad, " of ", count($docs), ", in the order asked: ",
    var_export(array_keys($pages) === $docs, true), "\n";
$same = 0;
foreach ($want['page_samples'] as [$g, $o, $page]) {
    foreach ($all as $d => $a) {
        if ((int)$a['generation'] === $g && (int)$a['summary_offset'] === $o) {
            $same += $ix->yioopSummaries([$d])[$d] === unserialize(base64_decode($page));
        }
    }
}
echo "whole pages equal: $same of ", count($want['page_samples']), "\n";
echo "a page's URL: ", $pages[$docs[0]]['l'] ?? 'none', "\n";
echo "none asked: ", json_encode($ix->yioopSummaries([])), "\n";

/* refused */
echo gp_error_of(fn() => $ix->yioopSummaries([1])), "\n";
echo gp_error_of(fn() => $ix->yioopSummaries(['x'])), "\n";
echo gp_error_of(fn() => $ix->yioopSummaries([-1])), "\n";
$plain = new GpuPost\Index(['a' => gpu_encode_postings([1, 2], GPUPOST_MOD9)]);
echo gp_error_of(fn() => $plain->yioopSummaries([1])), "\n";

/* damaged archives: each names the file and the byte */
function summary_error(GpuPost\Index $ix, int $doc): string {
    return preg_replace('~ \S*gpupost-106-\d+/bundle~', ' DIR', gp_error_of(fn() => $ix->yioopSummaries([$doc])));
}
$d = $docs[0];
$g = (int)$all[$d]['generation'];
$o = (int)$all[$d]['summary_offset'];
$file = "$dir/summaries/web_archive_$g.txt.gz";
$archive = file_get_contents($file);
$len = unpack('N', substr($archive, $o + 4, 4))[1];
$at = $o + 20;
$cases = [
    'a prefix that is no gzip header' => substr_replace($archive, "\0", $o, 1),
    'a length past the file' => substr_replace($archive, pack('N', strlen($archive)), $o + 4, 4),
    'a member with header fields' => substr_replace($archive, "\x08", $at + 3, 1),
    'a damaged deflate stream' => substr_replace($archive, str_repeat("\xff", 6), $at + 12, 6),
    'a CRC that disagrees' => substr_replace($archive, chr(ord($archive[$at + $len - 8]) ^ 1), $at + $len - 8, 1),
    'a size that disagrees' => substr_replace($archive, chr(ord($archive[$at + $len - 4]) ^ 1), $at + $len - 4, 1),
    'the file cut inside the record' => substr($archive, 0, $at + 10),
];
foreach ($cases as $what => $bytes) {
    file_put_contents($file, $bytes);
    echo "$what: ", summary_error($ix, $d), "\n";
}
/* a record whose page is not a serialized array, or holds an object */
$record = function (string $s): string {
    $z = gzencode($s, 9);
    return "\x1f\x8b\x08\x00" . pack('N', strlen($z)) . "\x00\x03\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00" . $z;
};
file_put_contents($file, substr($archive, 0, $o) . $record('not serialized') . substr($archive, $o + 20 + $len));
echo "not a page: ", summary_error($ix, $d), "\n";
file_put_contents($file, substr($archive, 0, $o) . $record(serialize(['x' => new ArrayObject([1])])) . substr($archive, $o + 20 + $len));
$p = $ix->yioopSummaries([$d])[$d];
echo "an object: ", get_class($p['x']), "\n";
unlink($file);
echo "missing: ", summary_error($ix, $d), "\n";
file_put_contents($file, $archive);
echo "restored: ", var_export($ix->yioopSummaries([$d]) === [$d => $pages[$d]], true), "\n";

/* a page past the room memory_limit leaves: GpuPost\Exception, not PHP's fatal error */
file_put_contents($file, substr($archive, 0, $o) . $record(serialize(['t' => str_repeat('a', 40 << 20)])) . substr($archive, $o + 20 + $len));
$limit = ini_get('memory_limit');
ini_set('memory_limit', '96M');
echo "a page past memory_limit: ", summary_error($ix, $d), "\n";
ini_set('memory_limit', $limit);
file_put_contents($file, $archive);
/* summaries/ a link out of open_basedir (in a child: open_basedir only narrows) */
rename("$dir/summaries", "$tmp/outside");
symlink("$tmp/outside", "$dir/summaries");
[$out] = gp_child('$ix = GpuPost\Index::openYioopBundle($argv[1]); echo gp_error_of(fn() => $ix->yioopSummaries([(int)$argv[2]]));',
    ['open_basedir' => "$dir:" . __DIR__], 'host', [$dir, $d]);
echo "through a link out of open_basedir: ", preg_replace('~ \S*gpupost-106-\d+/bundle~', ' DIR', $out), "\n";
unlink("$dir/summaries");
rename("$tmp/outside", "$dir/summaries");
/* random damage: pages, or GpuPost\Exception; never anything else */
$other = 0;
for ($r = 0; $r < 200; $r++) {
    $b = $archive;
    for ($k = mt_rand(1, 3); $k > 0; $k--) {
        $p = mt_rand(max(0, $o - 20), min(strlen($b) - 1, $o + $len + 40));
        $b[$p] = chr(mt_rand(0, 255));
    }
    file_put_contents($file, $b);
    try {
        $ix->yioopSummaries([$d]);
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
docs with records: 480
pages equal to Yioop's: 480 of 480, in the order asked: true
whole pages equal: 10 of 10
a page's URL: https://licenses.example.org/%s
none asked: []
ValueError: GpuPost\Index::yioopSummaries(): Argument #1 ($docs) doc 1 is no doc of the bundle (no doc record starts there)
TypeError: GpuPost\Index::yioopSummaries(): Argument #1 ($docs) must hold docs as int, string given
ValueError: GpuPost\Index::yioopSummaries(): Argument #1 ($docs) doc -1 is no doc of the bundle (no doc record starts there)
Error: GpuPost\Index::yioopSummaries(): the index was not opened by openYioopBundle()
a prefix that is no gzip header: GpuPost\Exception: Yioop web archive DIR/summaries/web_archive_%d.txt.gz: byte %d: no record's length prefix (a gzip header) here (the summary of doc %d)
a length past the file: GpuPost\Exception: Yioop web archive DIR/summaries/web_archive_%d.txt.gz: byte %d: record length %d is not that of a gzip member within the %d bytes after it (the summary of doc %d)
a member with header fields: GpuPost\Exception: Yioop web archive DIR/summaries/web_archive_%d.txt.gz: byte %d: the record is not a gzip member as gzencode() writes it (magic, deflate, no header fields) (the summary of doc %d)
a damaged deflate stream: GpuPost\Exception: Yioop web archive DIR/summaries/web_archive_%d.txt.gz: byte %d: %s (the summary of doc %d)
a CRC that disagrees: GpuPost\Exception: Yioop web archive DIR/summaries/web_archive_%d.txt.gz: byte %d: the record's CRC-32 or size disagrees with what it inflates to (the summary of doc %d)
a size that disagrees: GpuPost\Exception: Yioop web archive DIR/summaries/web_archive_%d.txt.gz: byte %d: %s (the summary of doc %d)
the file cut inside the record: GpuPost\Exception: Yioop web archive DIR/summaries/web_archive_%d.txt.gz: byte %d: record length %d is not that of a gzip member within the %d bytes after it (the summary of doc %d)
not a page: GpuPost\Exception: Yioop web archive DIR/summaries/web_archive_%d.txt.gz: byte %d: the record of doc %d is no serialized page
an object: __PHP_Incomplete_Class
missing: GpuPost\Exception: cannot open the Yioop web archive DIR/summaries/web_archive_%d.txt.gz: No such file or directory
restored: true
a page past memory_limit: GpuPost\Exception: the pages' summaries would need %d bytes of PHP memory, more than memory_limit leaves (%d)
through a link out of open_basedir: GpuPost\Exception: the Yioop web archive DIR/summaries/web_archive_%d.txt.gz is outside open_basedir
random damage: other errors 0
