class AddPlan < ActiveRecord::Migration[7.1] # want "defines up but no down"
  def up
    add_column :users, :plan, :string
  end
end
