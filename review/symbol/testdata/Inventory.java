package com.example.inventory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Inventory tracks stock per item.
 *
 * <p>Not thread-safe.
 */
@Service("inventory")
public class Inventory<T extends Item> implements Iterable<T> {
    /** The largest quantity per item. */
    public static final int MAX_STOCK = 10_000;

    private final Map<String, T> items = new HashMap<String, T>();
    protected int version, revision = 1;
    String label = "inv {main}";

    /**
     * Creates an empty inventory.
     */
    public Inventory() {
        this("default");
    }

    Inventory(String label) {
        this.label = label;
    }

    /** Returns the number of items. */
    @Override
    public int size() {
        return items.size();
    }

    public Optional<T> find(String id) throws LookupException {
        if (id == null) {
            throw new LookupException("null id");
        }
        return Optional.ofNullable(items.get(id));
    }

    public <R> List<R> map(java.util.function.Function<? super T, ? extends R> f) {
        return items.values().stream().map(f).toList();
    }

    private void log(String msg) {
        System.out.println(String.format("[%s] %s", label, msg));
    }

    @Override
    public java.util.Iterator<T> iterator() {
        return new java.util.Iterator<T>() {
            public boolean hasNext() { return false; }
            public T next() { return null; }
        };
    }

    /** Stock levels. */
    public enum Level {
        LOW("low"),
        HIGH("high") {
            @Override
            String describe() { return "plenty"; }
        };

        private final String label;

        Level(String label) {
            this.label = label;
        }

        String describe() {
            return label;
        }
    }

    public record Entry(String id, int quantity) implements Comparable<Entry> {
        public Entry {
            if (quantity < 0) throw new IllegalArgumentException("negative");
        }

        @Override
        public int compareTo(Entry o) {
            return Integer.compare(quantity, o.quantity);
        }
    }

    interface Listener {
        void changed(String id, int delta);

        default void removed(String id) {
            changed(id, -1);
        }
    }
}

@interface Service {
    String value() default "";
}
