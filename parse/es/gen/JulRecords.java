import java.text.MessageFormat;
import java.time.Instant;
import java.util.Date;
import java.util.Locale;
import java.util.TimeZone;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;

/**
 * Prints the two lines java.util.logging's SimpleFormatter writes for the
 * randomized runner's uncaught-exception record, in one locale per
 * language the running JVM has (and every locale with its own digits),
 * at a morning and an afternoon instant; and the same instants as JDK 6
 * printed them ({0,date} {0,time}). The test reads every header back.
 * Columns: form, locale, the instant (UTC), header, level line.
 */
public class JulRecords {
    public static void main(String[] args) {
        TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
        Instant[] at = {Instant.parse("2018-01-14T04:24:47Z"), Instant.parse("2018-09-02T17:19:26Z")};
        TreeMap<String, Locale> pick = new TreeMap<>();
        for (Locale l : Locale.getAvailableLocales()) {
            String key = l.getLanguage();
            char zero = java.text.DecimalFormatSymbols.getInstance(l).getZeroDigit();
            if (zero != '0') {
                key = l.toLanguageTag();
            }
            if (key.isEmpty()) {
                continue;
            }
            pick.putIfAbsent(key, l);
        }
        StringBuilder b = new StringBuilder();
        SimpleFormatter f = new SimpleFormatter();
        for (Locale l : pick.values()) {
            Locale.setDefault(l);
            for (Instant t : at) {
                LogRecord r = new LogRecord(Level.WARNING, "Uncaught exception in thread: Thread[elasticsearch[node_t4][write][T#2],5,TGRP-FollowIT]");
                r.setSourceClassName("com.carrotsearch.randomizedtesting.RandomizedRunner$QueueUncaughtExceptionsHandler");
                r.setSourceMethodName("uncaughtException");
                r.setInstant(t);
                String[] two = f.format(r).split("\\R");
                if (two.length >= 2) {
                    row(b, "default", l, t, two[0], two[1]);
                }
                String medium = new MessageFormat("{0,date} {0,time}", l).format(new Object[] {Date.from(t)});
                row(b, "medium", l, t, medium + " org.elasticsearch.index.shard.IndexShard updateGlobalCheckpointOnReplica", "");
            }
        }
        System.out.print(b);
    }

    private static void row(StringBuilder b, String form, Locale l, Instant t, String header, String level) {
        if (header.indexOf('\t') >= 0 || level.indexOf('\t') >= 0) {
            return;
        }
        b.append(form).append('\t').append(l.toLanguageTag()).append('\t').append(t).append('\t')
            .append(header).append('\t').append(level).append('\n');
    }
}
