from django.db import migrations


def backfill(apps, schema_editor):
    Item = apps.get_model("shop", "Item")
    Item.objects.filter(price=None).update(price=0)


class Migration(migrations.Migration):
    dependencies = [("shop", "0006_item_price")]
    operations = [
        migrations.RunPython(backfill),  # want "RunPython without reverse_code"
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.RunSQL("UPDATE shop_item SET price = 0", reverse_sql=migrations.RunSQL.noop),
    ]
