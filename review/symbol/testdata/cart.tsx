import React, { useCallback, useMemo, useState } from "react";
import type { Money } from "./money";

/**
 * An item in the cart.
 */
export interface CartItem {
  readonly id: string;
  name: string;
  price: Money;
  quantity?: number;
  onRemove(id: string): void;
}

export type Totals = { subtotal: number; tax: number };

export type Status =
  | "idle"
  | "saving"
  | "error";

export enum Currency {
  EUR = "EUR",
  USD = "USD",
}

const TAX_RATE = 0.2;

/** Formats an amount for display. */
export function formatMoney(amount: number, currency: Currency = Currency.EUR): string {
  return new Intl.NumberFormat("en", { style: "currency", currency }).format(amount);
}

export const computeTotals = (items: CartItem[]): Totals => {
  const subtotal = items.reduce((sum, i) => sum + i.price.amount * (i.quantity ?? 1), 0);
  return { subtotal, tax: subtotal * TAX_RATE };
};

type CartProps = {
  items: CartItem[];
  onCheckout: (totals: Totals) => Promise<void>;
};

/**
 * Cart lists the items with their totals.
 * @param props the items and the checkout callback
 */
export default function Cart({ items, onCheckout }: CartProps) {
  const [status, setStatus] = useState<Status>("idle");
  const totals = useMemo(() => computeTotals(items), [items]);
  const checkout = useCallback(async () => {
    setStatus("saving");
    try {
      await onCheckout(totals);
      setStatus("idle");
    } catch (err) {
      setStatus("error");
    }
  }, [onCheckout, totals]);
  // The apostrophe below is JSX text, not a string.
  return (
    <div className="cart">
      <p>Don't forget: {items.length} items</p>
      {items.map((item) => (
        <Row key={item.id} item={item} />
      ))}
      <button disabled={status === "saving"} onClick={checkout}>
        Pay {formatMoney(totals.subtotal + totals.tax)}
      </button>
    </div>
  );
}

const Row = React.memo(function Row({ item }: { item: CartItem }) {
  return <li>{`${item.name} × ${item.quantity ?? 1}`}</li>;
});

export class CartStore<T extends CartItem = CartItem> {
  private items = new Map<string, T>();
  static readonly version = 2;
  #listeners: Array<() => void> = [];

  constructor(private readonly storageKey: string, public currency: Currency) {}

  get size(): number {
    return this.items.size;
  }

  async save(item: T): Promise<void> {
    this.items.set(item.id, item);
    localStorage.setItem(this.storageKey, JSON.stringify([...this.items.values()]));
    this.#emit();
  }

  #emit() {
    this.#listeners.forEach((l) => l());
  }

  onChange = (listener: () => void): (() => void) => {
    this.#listeners.push(listener);
    return () => this.#listeners.splice(this.#listeners.indexOf(listener), 1);
  };
}
