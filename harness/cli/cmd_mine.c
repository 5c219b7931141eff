/* cmd_mine.c - `malform mine`: cluster failures into malformation families and
 * propose profile patches; runs `python -m malform_reports mine` through the
 * bridge in cmd_report.c. */

int cli_run_python(const char *sub, int argc, char **argv); /* cmd_report.c */

int cmd_mine(int argc, char **argv)
{
    return cli_run_python("mine", argc, argv);
}
