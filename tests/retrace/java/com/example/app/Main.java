package com.example.app;

import com.example.util.Checker;

/* A small program for tests/retrace_proguard.sh: deep chains of small
 * methods that ProGuard's optimizer inlines, exceptions thrown deep inside,
 * an obfuscated exception class, an inner class run on another thread. */
public class Main {
    public static void main(String[] args) throws Exception {
        int which = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        if (which == 3) {
            Thread t = new Thread(new Worker.Task(), "worker");
            t.start();
            t.join();
            return;
        }
        try {
            new Main().run(which);
        } catch (RuntimeException e) {
            e.printStackTrace();
        }
    }

    private int counter;

    void run(int which) {
        counter++;
        if (which == 0)
            outer(which + 1);
        else if (which == 1)
            Worker.work(which);
        else
            Repository.load(which, counter);
    }

    private void outer(int x) {
        middle(x * 2);
    }

    private void middle(int x) {
        inner(x + 3);
    }

    private void inner(int x) {
        Checker.check(x, counter);
    }
}
