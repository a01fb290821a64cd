#!/usr/bin/perl
# tests/docs/check-links.pl - 文档之间的相对链接都指向存在的文件和标题（GitHub 的标题锚点规则；<a id="…"></a> 也算锚点）
# 用法: perl tests/docs/check-links.pl 文档...   每个坏链接打印一行，有坏链接时退出 1
use strict;
use warnings;
use utf8;
use open qw(:std :encoding(UTF-8));
use File::Basename qw(dirname);
use File::Spec;

sub slug {    # GitHub: 小写，去掉除字母、数字、空格、连字符以外的字符，空格变连字符
    my $t = lc shift;
    $t =~ s/[^\p{L}\p{N}\p{M} _-]//g;
    $t =~ s/ /-/g;
    return $t;
}

my %anchors;
sub anchors_of {
    my $file = shift;
    return $anchors{$file} if $anchors{$file};
    my %seen;
    open my $fh, '<', $file or return {};
    my $fence = 0;
    while (<$fh>) {
        $fence = !$fence if /^```/;
        next if $fence;
        $anchors{$file}{$1} = 1 while /<a id="([^"]+)"><\/a>/g;   # 显式的锚点：搬走的小节留下的旧锚点
        next unless /^#{1,6}\s+(.*?)\s*$/;
        my $s = slug($1);
        my $n = $seen{$s}++;
        $anchors{$file}{ $n ? "$s-$n" : $s } = 1;
    }
    return $anchors{$file} ||= {};
}

my $bad = 0;
for my $doc (@ARGV) {
    open my $fh, '<', $doc or die "$doc: $!";
    my $fence = 0;
    while (my $line = <$fh>) {
        my $ln = $.;
        $fence = !$fence if $line =~ /^```/;
        next if $fence;
        while ($line =~ /\]\(([^)\s]+)\)/g) {
            my $link = $1;
            next if $link =~ m{^[a-z]+://};
            my ($path, $frag) = split /#/, $link, 2;
            my $target = $path eq '' ? $doc : File::Spec->catfile(dirname($doc), $path);
            if (!-e $target) { print "$doc:$ln: 链接的文件不存在: $link\n"; $bad = 1; next; }
            next unless defined $frag && $target =~ /\.md$/;
            next if anchors_of($target)->{$frag};
            print "$doc:$ln: $target 里没有标题锚点 #$frag\n";
            $bad = 1;
        }
    }
}
exit $bad;
