import java.text.DateFormat;
import java.text.DateFormatSymbols;
import java.text.DecimalFormatSymbols;
import java.text.SimpleDateFormat;
import java.util.Locale;
import java.util.logging.Level;

/**
 * Prints, for every locale of the running JVM, what java.util.logging's
 * SimpleFormatter can put in a record's header: month names (the default
 * format's %tb and a medium date's MMM), AM/PM markers (%Tp upper-cased,
 * and as a medium time prints them), the zero digit, the medium date-time
 * pattern (older JVMs and custom formats), and the localized level names.
 * One line per fact: kind, text, value, locale. gen/jul_locales.sh runs
 * it under several JVMs and locale providers and merges the results.
 */
public class JulLocales {
    public static void main(String[] args) {
        Level[] levels = {Level.SEVERE, Level.WARNING, Level.INFO, Level.CONFIG, Level.FINE, Level.FINER, Level.FINEST};
        StringBuilder b = new StringBuilder();
        for (Locale l : Locale.getAvailableLocales()) {
            String tag = l.toLanguageTag();
            DateFormatSymbols s = DateFormatSymbols.getInstance(l);
            String[] shortMonths = s.getShortMonths();
            String[] months = s.getMonths();
            // Names are matched without regard to case (%Tp upper-cases
            // the marker), so they are listed lower-cased.
            for (int i = 0; i < 12; i++) {
                line(b, "month", shortMonths[i].toLowerCase(Locale.ROOT), Integer.toString(i + 1), tag);
                line(b, "month", months[i].toLowerCase(Locale.ROOT), Integer.toString(i + 1), tag);
            }
            String[] ampm = s.getAmPmStrings();
            for (int i = 0; i < 2; i++) {
                line(b, "ampm", ampm[i].toLowerCase(Locale.ROOT), i == 0 ? "am" : "pm", tag);
            }
            line(b, "zero", String.valueOf(DecimalFormatSymbols.getInstance(l).getZeroDigit()), "0", tag);
            // JDK 6's SimpleFormatter printed MessageFormat's
            // "{0,date} {0,time}": the medium date, a space, the medium
            // time.
            DateFormat d = DateFormat.getDateInstance(DateFormat.MEDIUM, l);
            DateFormat t = DateFormat.getTimeInstance(DateFormat.MEDIUM, l);
            if (d instanceof SimpleDateFormat && t instanceof SimpleDateFormat) {
                line(b, "pattern", ((SimpleDateFormat) d).toPattern() + " " + ((SimpleDateFormat) t).toPattern(), "medium", tag);
            }
            Locale.setDefault(l);
            for (Level v : levels) {
                line(b, "level", v.getLocalizedName(), v.getName(), tag);
            }
        }
        System.out.print(b);
    }

    private static void line(StringBuilder b, String kind, String text, String value, String tag) {
        if (text.isEmpty() || text.indexOf('\t') >= 0 || text.indexOf('\n') >= 0) {
            return;
        }
        b.append(kind).append('\t').append(text).append('\t').append(value).append('\t').append(tag).append('\n');
    }
}
