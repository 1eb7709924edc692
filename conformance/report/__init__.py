"""Reports: JSON, JUnit and the printed summary, the HTML pages with their replayer, and reproductions."""
