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
            for (int i = 0; i < 12; i++) {
                line(b, "month", shortMonths[i], Integer.toString(i + 1), tag);
                line(b, "month", months[i], Integer.toString(i + 1), tag);
            }
            String[] ampm = s.getAmPmStrings();
            for (int i = 0; i < 2; i++) {
                String v = i == 0 ? "am" : "pm";
                line(b, "ampm", ampm[i], v, tag);
                line(b, "ampm", ampm[i].toUpperCase(l), v, tag);
            }
            line(b, "zero", String.valueOf(DecimalFormatSymbols.getInstance(l).getZeroDigit()), "0", tag);
            DateFormat d = DateFormat.getDateTimeInstance(DateFormat.MEDIUM, DateFormat.MEDIUM, l);
            if (d instanceof SimpleDateFormat) {
                line(b, "pattern", ((SimpleDateFormat) d).toPattern(), "medium", tag);
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
