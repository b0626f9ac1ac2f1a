<?php
/* composer.json's php-ext section (what PIE reads) checked against the rules of PIE's published
 * schema (php/pie, resources/composer-json-php-ext-schema.json: the keys it defines, their types,
 * ranges, enums and the option names' pattern), and against this tree: the extension name is the
 * one config.m4 builds, every configure option is one config.m4 declares. Debian 12's composer
 * (2.5) predates the php-ext key, so `composer validate` checks the rest. Exits non-zero with a
 * line per fault.
 *   php scripts/check-composer.php [composer.json]
 */
$root = dirname(__DIR__);
$file = $argv[1] ?? "$root/composer.json";
$json = json_decode((string)file_get_contents($file), true);
$faults = [];
$fault = function (string $what) use (&$faults) { $faults[] = $what; };

if (!is_array($json)) {
    fwrite(STDERR, "$file: not JSON\n");
    exit(1);
}
if (($json['type'] ?? null) !== 'php-ext') $fault("type must be php-ext");
$ext = $json['php-ext'] ?? null;
if (!is_array($ext)) {
    $fault('no php-ext section');
    $ext = [];
}
$known = ['extension-name', 'priority', 'support-zts', 'support-nts', 'build-path',
          'override-download-url-method', 'os-families', 'os-families-exclude', 'configure-options'];
foreach (array_diff(array_keys($ext), $known) as $k) $fault("php-ext.$k is not a key of the schema");
if (isset($ext['extension-name']) && !is_string($ext['extension-name'])) $fault('extension-name must be a string');
if (isset($ext['priority']) && (!is_int($ext['priority']) || $ext['priority'] < 10 || $ext['priority'] > 99)) {
    $fault('priority must be an integer from 10 to 99');
}
foreach (['support-zts', 'support-nts'] as $k) {
    if (isset($ext[$k]) && !is_bool($ext[$k])) $fault("$k must be a boolean");
}
if (array_key_exists('build-path', $ext) && !is_string($ext['build-path']) && $ext['build-path'] !== null) {
    $fault('build-path must be a string or null');
}
if (isset($ext['override-download-url-method']) &&
        !in_array($ext['override-download-url-method'], ['composer-default', 'pre-packaged-source'], true)) {
    $fault('override-download-url-method must be composer-default or pre-packaged-source');
}
$families = ['windows', 'bsd', 'darwin', 'solaris', 'linux', 'unknown'];
foreach (['os-families', 'os-families-exclude'] as $k) {
    if (!isset($ext[$k])) continue;
    if (!is_array($ext[$k]) || !array_is_list($ext[$k]) || count($ext[$k]) < 1) $fault("$k must be a list of one or more");
    else foreach ($ext[$k] as $f) if (!in_array($f, $families, true)) $fault("$k: unknown family " . json_encode($f));
}
if (isset($ext['os-families'], $ext['os-families-exclude'])) $fault('os-families and os-families-exclude together');

/* against this tree */
$m4 = (string)file_get_contents("$root/config.m4");
preg_match('/PHP_NEW_EXTENSION\((\w+)/', $m4, $m);
$built = $m[1] ?? '';
$name = preg_replace('/^ext-/', '', $ext['extension-name'] ?? '');
if ($name !== $built) $fault("extension-name '$name' is not the extension config.m4 builds ('$built')");
$declared = [];
preg_match_all('/PHP_ARG_(WITH|ENABLE)\(\[([\w-]+)\]/', $m4, $args, PREG_SET_ORDER);
foreach ($args as [, $kind, $arg]) $declared[] = strtolower($kind) . "-$arg";
foreach ($ext['configure-options'] ?? [] as $i => $opt) {
    if (!is_array($opt) || !isset($opt['name']) || !is_string($opt['name'])) {
        $fault("configure-options[$i]: a name is required");
        continue;
    }
    foreach (array_diff(array_keys($opt), ['name', 'needs-value', 'description']) as $k) $fault("configure-options[$i].$k is not a key of the schema");
    if (!preg_match('/^[a-zA-Z0-9][a-zA-Z0-9-_]*$/', $opt['name'])) $fault("configure-options[$i]: name '{$opt['name']}' breaks the pattern");
    if (isset($opt['needs-value']) && !is_bool($opt['needs-value'])) $fault("configure-options[$i]: needs-value must be a boolean");
    if (isset($opt['description']) && !is_string($opt['description'])) $fault("configure-options[$i]: description must be a string");
    if (!in_array($opt['name'], $declared, true)) $fault("configure-options[$i]: --{$opt['name']} is not declared in config.m4");
}
foreach ($faults as $f) fwrite(STDERR, "composer.json: $f\n");
if ($faults) exit(1);
echo "composer.json: php-ext as PIE's schema says, extension '$built', configure options ",
    implode(', ', array_map(fn($o) => '--' . $o['name'], $ext['configure-options'] ?? [])), "\n";
